/// How strictly a ``TestStore`` checks a feature.
///
/// An exhaustive test store (the default) fails when a state change is not asserted, when an action
/// received from an effect is not asserted, and when an effect is still running at the end of the test.
/// A non-exhaustive one only checks what you assert.
///
/// ```swift
/// store.exhaustivity = .off(showSkippedAssertions: true)
/// ```
///
/// > Important: Turn exhaustivity off for integration-style tests of large features, not to silence a
/// > failure you do not understand: it hides real regressions.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, received action and in-flight effect must be asserted.
  case on
  /// Only what the test asserts is checked. With `showSkippedAssertions`, what was skipped is reported
  /// as an expected (known) issue so you can still read it.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without reporting what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}
