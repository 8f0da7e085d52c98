import CustomDump

/// A value whose test failures show its own notation's diff rather than custom-dump's: Lua state and
/// actions read as Lua tables to the Lua author who wrote the test.
package protocol CustomTestDiff {
  /// What changed from `expected` to `self`, a line per change: removed lines start with `−`,
  /// added ones with `+`, others with a figure space (custom-dump's proportional format); `nil`
  /// when they are equal.
  func testDiff(from expected: Self) -> String?
}

extension CustomTestDiff {
  fileprivate func testDiff(to actual: Any) -> String? {
    (actual as? Self)?.testDiff(from: self)
  }
}

/// The difference a failure shows between `expected` and `actual`: the values' own
/// (``CustomTestDiff``) or custom-dump's.
func testDiff<T>(_ expected: T, _ actual: T) -> String? {
  if let expected = expected as? any CustomTestDiff { return expected.testDiff(to: actual) }
  return diff(expected, actual, format: .proportional)
}
