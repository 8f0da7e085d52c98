import Composable
import CustomDump

extension TestStore {
  /// Fails (when exhaustive) on shared values changed outside the reducer — by an effect — since the
  /// last assertion, then accepts those changes.
  func checkSharedChanges(at location: EffectOrigin) {
    defer { sharedTracker.acceptAll() }
    guard exhaustivity == .on else { return }
    let changes = sharedTracker.unassertedChanges
    guard !changes.isEmpty else { return }
    fail(
      """
      Shared state was changed but not asserted: …

      \(changes.map { "\($0.indent(by: 4))" }.joined(separator: "\n\n"))

      (Before: −, After: +)

      An effect changed shared state. Assert the change with "store.assert { … }" after awaiting \
      the effect, e.g. $0.count.withLock { $0 = 1 }.
      """,
      at: location
    )
  }

  /// A diff of expected and actual state that shows shared values as the test expects them on the
  /// expected side; `nil` when no shared value is involved, so the usual diff is used.
  func sharedMismatch(expected: State, actual: State) -> String? {
    guard sharedTracker.didAssert || !sharedTracker.unassertedChanges.isEmpty else { return nil }
    // NB: One `diff` call dumps both sides in the same mode; shared values need the expected side
    //     dumped from their snapshots, so each side is dumped on its own and the dumps are diffed.
    let expectedDump = SharedChangeTracker.$mode.withValue(.dumpingExpected(sharedTracker)) {
      String(customDumping: expected)
    }
    let actualDump = String(customDumping: actual)
    guard expectedDump != actualDump else { return nil }
    return "\(lineDiff(expectedDump, actualDump, removed: "−", added: "+").indent(by: 4))\n\n(Expected: −, Actual: +)"
  }
}
