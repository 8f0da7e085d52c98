/// A piece of text shown by an alert, a dialog or a button: plain data, so that tests can compare it.
///
/// ```swift
/// AlertState { TextState("Delete all items?") }
/// let label: TextState = "Cancel"
/// ```
public struct TextState: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The text.
  public var string: String

  /// Text showing `string`.
  public init(_ string: String) {
    self.string = string
  }

  /// Text written as a string literal: `let label: TextState = "Cancel"`.
  public init(stringLiteral value: String) {
    self.init(value)
  }

  /// The text itself.
  public var description: String { string }
}
