import CasePathsCore
import Composable
import ConcurrencyExtras
import CustomDump

extension TestStore {
  /// Asserts that an effect sent `expectedAction` next, and how it changed state.
  ///
  /// ```swift
  /// await store.receive(.factResponse("1 is a good number.")) {
  ///   $0.fact = "1 is a good number."
  /// }
  /// ```
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receiveAction(
      describing: String(customDumping: expectedAction),
      matching: { $0 == expectedAction },
      mismatch: { received in
        diff(expectedAction, received, format: .proportional)
          .map { "\($0.indent(by: 4))\n\n(Expected: −, Received: +)" }
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action of the case `actionCase` next, and how it changed state.
  ///
  /// ```swift
  /// await store.receive(\.factResponse) {
  ///   $0.fact = "1 is a good number."
  /// }
  /// ```
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    await receiveAction(
      describing: "an action matching \(actionCase)",
      matching: { casePath.extract(from: $0) != nil },
      mismatch: { _ in nil },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action of the case `actionCase` carrying `value` next.
  ///
  /// ```swift
  /// await store.receive(\.factResponse, "1 is a good number.") {
  ///   $0.fact = "1 is a good number."
  /// }
  /// ```
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    await receiveAction(
      describing: "\(actionCase) carrying \(String(customDumping: value))",
      matching: { casePath.extract(from: $0) == value },
      mismatch: { received in
        guard let payload = casePath.extract(from: received) else { return nil }
        return diff(value, payload, format: .proportional)
          .map { "\($0.indent(by: 4))\n\n(Expected: −, Received: +)" }
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action for which `isMatching` holds next.
  ///
  /// ```swift
  /// await store.receive({ if case .tick = $0 { true } else { false } }) {
  ///   $0.seconds = 1
  /// }
  /// ```
  public func receive(
    _ isMatching: @escaping (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      describing: "an action matching the predicate",
      matching: isMatching,
      mismatch: { _ in nil },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  private func receiveAction(
    describing expectation: String,
    matching isMatching: (Action) -> Bool,
    mismatch: (Action) -> String?,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    at location: EffectOrigin
  ) async {
    let arrived = await waitUntil(timeout: timeout ?? self.timeout) {
      exhaustivity == .on ? !received.isEmpty : received.contains { isMatching($0.action) }
    }
    guard arrived else {
      var message = "Expected to receive \(expectation), but received none."
      if !runtime.isIdle {
        message += """


          \(runtime.inFlight.count) effect(s) still running; one may send it later. Use a longer \
          "timeout", or advance the clock the effect waits on.
          """
      } else if !received.isEmpty {
        message += "\n\nReceived instead:\n\(describe(received.map(\.action)))"
      }
      fail(message, at: location)
      return
    }

    if exhaustivity != .on {
      // NB: Non-exhaustive: actions before the match are accepted without assertion.
      while let first = received.first, !isMatching(first.action) {
        asserted = first.state
        received.removeFirst()
      }
    }
    let (action, stateAfter) = received.removeFirst()
    if !isMatching(action) {
      var message = "Received unexpected action: …\n\n"
      message += mismatch(action) ?? "  Expected:\n\(expectation.indent(by: 4))\n\n  Received:\n\(String(customDumping: action).indent(by: 4))"
      fail(message, at: location)
    } else {
      check(previous: asserted, actual: stateAfter, update: update, at: location)
    }
    asserted = stateAfter
    await Task.megaYield()
  }

  /// Waits, in real time, until `condition` holds or `timeout` passes.
  ///
  /// Only time in which the waiting task got to run counts against `timeout`. While a test store is
  /// alive every task shares the main serial executor, so a long synchronous test running in
  /// parallel can hold it for seconds; counting that stall would fail a wait whose effect never had
  /// a turn. A stall shows up as one long gap between two checks, and each gap counts for at most
  /// ``stallAllowance``.
  func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    if condition() { return true }
    await Task.megaYield()
    let clock = ContinuousClock()
    var waited = Duration.zero
    var last = clock.now
    while !condition() {
      let now = clock.now
      waited += min(now - last, Self.stallAllowance)
      last = now
      if waited >= timeout { return false }
      await Task.megaYield(count: 4)
      if condition() { return true }
      try? await Task.sleep(for: .microseconds(200))
    }
    return true
  }

  /// The most one gap between two checks of ``waitUntil(timeout:_:)`` counts: far above a round of
  /// yields and a 200 µs sleep on a busy machine, far below a stall.
  static var stallAllowance: Duration { .milliseconds(20) }
}
