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
        testDiff(expectedAction, received)
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
    let location = EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    await receiveAction(
      describing: "an action of case \(caseKeyPathDescription(actionCase, at: location))",
      matching: { casePath.extract(from: $0) != nil },
      mismatch: { _ in nil },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: location
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
      describing: String(customDumping: casePath.embed(value)),
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

  /// Asserts that an effect sent an action for which `isMatching` holds next, with failures that
  /// speak the caller's language: `expectation` says what was expected ("an action of type
  /// \"done\""), `arrived` explains the actions that did arrive instead (all those received and
  /// not yet asserted, oldest first), and `advice` replaces the paragraph that suggests the API
  /// to use when effects are still running.
  ///
  /// For hosts that drive a test store on behalf of another language (Lunar's Lua tests).
  package func receive(
    describing expectation: String,
    matching isMatching: @escaping (Action) -> Bool,
    arrived: @escaping ([Action]) -> String,
    advice: String? = nil,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    at location: EffectOrigin
  ) async {
    await receiveAction(
      describing: expectation, matching: isMatching, mismatch: { _ in nil }, arrived: arrived, advice: advice,
      timeout: timeout, update: updateStateToExpectedResult, at: location
    )
  }

  /// The actions effects sent that no `receive` asserted yet, oldest first.
  package var unassertedActions: [Action] { received.map(\.action) }

  private func receiveAction(
    describing expectation: String,
    matching isMatching: (Action) -> Bool,
    mismatch: (Action) -> String?,
    arrived explainArrived: (([Action]) -> String)? = nil,
    advice: String? = nil,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    at location: EffectOrigin
  ) async {
    step = location
    func arrived() -> Bool {
      exhaustivity == .on ? !received.isEmpty : received.contains { isMatching($0.action) }
    }
    // NB: Wait only while an action can still arrive: with no effect running, none will.
    if !arrived(), runtime.hasRunningEffects {
      _ = await waitUntil(timeout: timeout ?? self.timeout) { arrived() || !runtime.hasRunningEffects }
    }
    guard arrived() else {
      var message = "Expected to receive \(expectation), but received none."
      if !runtime.isIdle {
        message += """


          \(runtime.inFlight.count) effect(s) still running; one may send it later. \
          \(advice ?? "Use a longer \"timeout\", or advance the clock the effect waits on.")
          """
      } else if !received.isEmpty {
        message += "\n\nReceived instead:\n" + (explainArrived?(received.map(\.action)) ?? describe(received.map(\.action)))
      } else {
        message += "\n\nNo effect is running, so nothing can be received."
      }
      fail(message, at: location)
      return
    }

    if exhaustivity != .on {
      // NB: Non-exhaustive: actions before the match are accepted without assertion.
      var skipped: [Action] = []
      while let first = received.first, !isMatching(first.action) {
        asserted = first.state
        skipped.append(first.action)
        received.removeFirst()
      }
      reportSkipped(skipped, at: location)
    }
    let entry = received.removeFirst()
    // NB: An action a later send went ahead without was reported already; its state is stale.
    if entry.superseded {
      if !isMatching(entry.action) {
        fail("Received unexpected action: …\n\n" + (mismatch(entry.action) ?? describe([entry.action])), at: location)
      }
      await Task.megaYield()
      return
    }
    if !isMatching(entry.action) {
      var message = "Received unexpected action: …\n\n"
      if let explainArrived {
        message = "Expected to receive \(expectation), but received another action.\n\n"
        message += explainArrived([entry.action] + received.map(\.action))
      } else {
        message += mismatch(entry.action) ?? "  Expected:\n\(expectation.indent(by: 4))\n\n  Received:\n\(String(customDumping: entry.action).indent(by: 4))"
      }
      fail(message, at: location)
    } else {
      check(
        previous: asserted, actual: entry.state, update: update, stackElementID: entry.stackElementID,
        at: location
      )
    }
    asserted = entry.state
    await Task.megaYield()
  }
}
