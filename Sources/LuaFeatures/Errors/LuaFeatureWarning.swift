import Foundation

/// Something a feature did that is likely a mistake but breaks nothing, with the author's
/// `file:line`.
///
/// ```
/// warning: counter.lua:14: an effect (fx.run) was built but not returned, so it never runs: …
/// ```
public struct LuaFeatureWarning: Sendable, CustomStringConvertible {
  /// The message, without its `file:line:` prefix.
  public var message: String
  /// The script file the warning is about.
  public var file: String?
  /// The line in it.
  public var line: Int?

  /// A warning from its text, which starts with `file:line:` when it has a place.
  public init(_ text: String) {
    let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    if parts.count == 3, let line = Int(parts[1]), parts[0].hasSuffix(".lua") {
      file = String(parts[0])
      self.line = line
      message = parts[2].trimmingCharacters(in: .whitespaces)
    } else {
      message = text
    }
  }

  /// `file:line`, when known.
  public var location: String? {
    guard let file else { return nil }
    return line.map { "\(file):\($0)" } ?? file
  }

  public var description: String {
    "warning: " + (location.map { "\($0): " } ?? "") + message
  }
}
