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
    let expectedDump = SharedChangeTracker.$mode.withValue(.dumpingExpected) {
      String(customDumping: expected)
    }
    let actualDump = String(customDumping: actual)
    guard expectedDump != actualDump else { return nil }
    return "\(lineDiff(expectedDump, actualDump).indent(by: 4))\n\n(Expected: −, Actual: +)"
  }
}

/// A line-by-line diff: unchanged lines indented, removed ones with `−`, added ones with `+`.
func lineDiff(_ old: String, _ new: String) -> String {
  let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
  let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
  let difference = newLines.difference(from: oldLines)
  var removed = Set<Int>()
  var inserted = Set<Int>()
  for change in difference {
    switch change {
    case let .remove(offset, _, _): removed.insert(offset)
    case let .insert(offset, _, _): inserted.insert(offset)
    }
  }
  var lines: [String] = []
  var (i, j) = (0, 0)
  while i < oldLines.count || j < newLines.count {
    if i < oldLines.count, removed.contains(i) {
      lines.append("−\(oldLines[i])")
      i += 1
    } else if j < newLines.count, inserted.contains(j) {
      lines.append("+\(newLines[j])")
      j += 1
    } else {
      lines.append(" \(newLines[j])")
      (i, j) = (i + 1, j + 1)
    }
  }
  return lines.joined(separator: "\n")
}
