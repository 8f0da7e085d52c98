import Composable
import CustomDump
import Dependencies
import IssueReporting

extension TestStore {
  /// Compares the state the test expects with the state the feature produced, and reports a diff.
  ///
  /// With `requireChange`, a closure that changes nothing fails too (it asserts a change that did
  /// not happen); ``assert(_:fileID:filePath:line:column:)`` checks the state as it is, so it does not.
  ///
  /// The closure runs with the store's dependencies, `stackElementID` replaced by `stackElementID`
  /// (a copy of the generator as it was before the action), and with ``state`` reading `previous`.
  func check(
    previous: State,
    actual: State,
    update: ((inout State) throws -> Void)?,
    requireChange: Bool = true,
    stackElementID: StackElementIDGenerator,
    at location: EffectOrigin
  ) {
    // NB: Shared values are references: the assertion closure edits their snapshots (the expected
    //     values), and `==` compares a snapshot on its left with the current value on its right.
    defer { sharedTracker.acceptAll() }
    assertionBase = previous
    defer { assertionBase = nil }
    var dependencies = self.dependencies
    let sharedTracker = self.sharedTracker
    // NB: Each run of the closure draws from its own copy, so `stackElementID` stays as it was.
    dependencies.stackElementID = stackElementID.incrementingCopy()
    let update = update.map { update in
      { (state: inout State) throws in
        try Dependencies.withDependencies({ $0 = dependencies }) {
          try SharedChangeTracker.$mode.withValue(.asserting(sharedTracker)) { try update(&state) }
        }
      }
    }
    // NB: Non-exhaustive, the closure runs on what actually happened (TCA's rule: its checks of
    //     the new state, `#expect(state.path.count == 1)`, hold there); on the previous state only
    //     to show what was skipped, where an error it throws is part of what was skipped.
    var expected = previous
    do {
      try update?(&expected)
    } catch {
      guard exhaustivity == .on else {
        checkActual(actual, update: update, at: location)
        return
      }
      fail("Threw error: \(error)", at: location)
      return
    }

    switch exhaustivity {
    case .on:
      if SharedChangeTracker.$mode.withValue(.comparing(sharedTracker), operation: { expected != actual }) {
        let headline =
          update == nil
          ? "State was not expected to change, but a change occurred: …"
          : "A state change does not match expectation: …"
        fail(stateMismatch(headline, expected: expected, actual: actual), at: location)
      } else if requireChange, update != nil, expected == previous, !sharedTracker.didAssert {
        fail(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to state is \
          expected, omit the trailing closure.
          """,
          at: location
        )
      }

    case let .off(showSkippedAssertions):
      // NB: Non-exhaustive: apply the test's expectations to what actually happened, so that only
      //     the fields it mentions are checked.
      dependencies.stackElementID = stackElementID.incrementingCopy()
      if !checkActual(actual, update: update, at: location) {
        return
      } else if showSkippedAssertions, expected != actual {
        skipped(
          stateMismatch(
            "A state change was not asserted (skipped by non-exhaustive test store): …",
            expected: expected, actual: actual
          ),
          at: location
        )
      }
    }
  }

  /// The non-exhaustive check: `update` applied to `actual` must leave it as it is. Returns whether
  /// it did (a failure is reported otherwise).
  @discardableResult
  private func checkActual(
    _ actual: State, update: ((inout State) throws -> Void)?, at location: EffectOrigin
  ) -> Bool {
    sharedTracker.acceptAll()
    var expectedFromActual = actual
    do {
      try update?(&expectedFromActual)
    } catch {
      fail("Threw error: \(error)", at: location)
      return false
    }
    if SharedChangeTracker.$mode.withValue(.comparing(sharedTracker), operation: { expectedFromActual != actual }) {
      fail(
        stateMismatch("A state change does not match expectation: …", expected: expectedFromActual, actual: actual),
        at: location
      )
      return false
    }
    return true
  }

  func stateMismatch(_ headline: String, expected: State, actual: State) -> String {
    if let shared = sharedMismatch(expected: expected, actual: actual) {
      return "\(headline)\n\n\(shared)"
    }
    let difference =
      testDiff(expected, actual)
      .map { "\($0.indent(by: 4))\n\n(Expected: −, Actual: +)" }
      ?? """
      Expected:
      \(String(customDumping: expected).indent(by: 2))

      Actual:
      \(String(customDumping: actual).indent(by: 2))
      """
    return "\(headline)\n\n\(difference)"
  }

  /// Reports a test failure pointing at `location`.
  func fail(_ message: String, at location: EffectOrigin) {
    reportIssue(
      message,
      fileID: location.fileID,
      filePath: location.filePath,
      line: location.line,
      column: location.column
    )
  }

  /// Reports what a non-exhaustive store skipped, as an expected issue that does not fail the test.
  func skipped(_ message: String, at location: EffectOrigin) {
    if let showSkipped { return showSkipped(message, location) }
    withExpectedIssue {
      reportIssue(
        message,
        fileID: location.fileID,
        filePath: location.filePath,
        line: location.line,
        column: location.column
      )
    }
  }

  func describe(_ actions: [Action]) -> String {
    actions.map { String(customDumping: $0) }.joined(separator: "\n").indent(by: 2)
  }

  /// Reports actions a non-exhaustive store accepted without assertion, when it shows them.
  func reportSkipped(_ actions: [Action], at location: EffectOrigin) {
    guard !actions.isEmpty, exhaustivity == .off(showSkippedAssertions: true) else { return }
    skipped(
      """
      \(actions.count) received action\(actions.count == 1 ? " was" : "s were") skipped \
      (non-exhaustive test store):

      \(describe(actions))
      """,
      at: location
    )
  }
}

extension String {
  func indent(by spaces: Int) -> String {
    let padding = String(repeating: " ", count: spaces)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : padding + $0 }
      .joined(separator: "\n")
  }
}
