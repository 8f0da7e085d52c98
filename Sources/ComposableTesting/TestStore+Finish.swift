import Composable
import ConcurrencyExtras

extension TestStore {
  /// Waits for every running effect to finish, and fails if one is still running after `timeout`.
  ///
  /// Effects passed over with ``skipInFlightEffects(strict:fileID:filePath:line:column:)`` are not
  /// waited for. Received actions not yet asserted are reported, and stay to be received.
  ///
  /// ```swift
  /// await store.send(.onAppear)
  /// await store.receive(\.loaded) { … }
  /// await store.finish()
  /// ```
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    let finished = await waitUntil(timeout: timeout ?? self.timeout) { runtime.isIdle }
    if !finished {
      fail(
        """
        Expected effects to finish, but \(runtime.inFlight.count) still running:

        \(describeInFlight())

        Cancel them in the feature when they are no longer needed, advance the clock they wait on, \
        or use "skipInFlightEffects" if the test does not care about them.
        """,
        at: location
      )
    }
    checkNothingLeft(at: location, ending: false)
  }

  /// Accepts every action received so far without asserting on them: ``state`` moves on to the
  /// state after the last of them.
  ///
  /// - Parameter strict: Fail when there is nothing to skip.
  /// - Returns: The actions skipped, oldest first.
  @discardableResult
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> [Action] {
    await Task.megaYield()
    let location = EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    if received.isEmpty, strict {
      fail("There were no received actions to skip.", at: location)
    }
    let skipped = received.map(\.action)
    reportSkipped(skipped, at: location)
    adoptReceived()
    return skipped
  }

  /// Stops waiting for the effects running now: the end of the test (and ``finish(timeout:fileID:filePath:line:column:)``)
  /// no longer fails on them.
  ///
  /// The effects are not cancelled: they keep running, and the actions they send later are received
  /// like any other, as in TCA.
  ///
  /// ```swift
  /// await store.send(.onAppear)          // starts a long-lived observation
  /// await store.skipInFlightEffects()    // this test is not about it
  /// ```
  ///
  /// - Parameter strict: Fail when no effect is running.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await Task.megaYield()
    let location = EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    if runtime.isIdle {
      if strict { fail("There were no in-flight effects to skip.", at: location) }
      return
    }
    if exhaustivity == .off(showSkippedAssertions: true) {
      skipped(
        """
        \(runtime.inFlight.count) in-flight effect(s) were skipped:

        \(describeInFlight())
        """,
        at: location
      )
    }
    runtime.untrackAll()
  }

  /// The end-of-test checks: no unasserted received action, no effect still running.
  func checkNothingLeft(at location: EffectOrigin, ending: Bool) {
    // NB: Not in `finish`: a test awaits effects there, then asserts their shared changes.
    if ending { checkSharedChanges(at: location) }
    guard exhaustivity == .on else { return }
    let unreported = received.filter { !$0.reported }
    if !unreported.isEmpty {
      fail(
        """
        The store received \(unreported.count) unexpected \
        action\(unreported.count == 1 ? "" : "s"): …

        Unhandled actions:
        \(describe(unreported.map(\.action)))

        Assert them with "receive", or skip them with "skipReceivedActions".
        """,
        at: location
      )
      // NB: They stay receivable; they are reported once.
      for index in received.indices { received[index].reported = true }
    }
    if ending, !runtime.isIdle {
      fail(
        """
        An effect returned for this action is still running. It must complete before the end of the \
        test: …

        \(describeInFlight())

        Await it with "finish", cancel it in the feature, or skip it with "skipInFlightEffects".
        """,
        at: location
      )
    }
  }

  private func describeInFlight() -> String {
    runtime.inFlight
      .map { "  • an effect created at \($0.origin.map(String.init(describing:)) ?? "an unknown place")" }
      .joined(separator: "\n")
  }
}
