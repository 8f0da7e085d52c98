/// A value that cannot be written as JSON, or JSON text that cannot be read as a ``LuaValue``; says
/// where and why.
///
/// ```swift
/// do {
///   _ = try LuaJSONEncoder().encode(state, root: "state")
/// } catch {
///   print(error)   // state.todos[3].title: not valid UTF-8 at byte 4 (0xFF); JSON text must be UTF-8
/// }
/// ```
///
/// Thrown by ``LuaJSONEncoder`` (``offset`` is `nil`: the path says where) and ``LuaJSONDecoder``
/// (``offset`` is the byte in the JSON text where reading stopped, and the path is where in the
/// document that was).
public struct LuaJSONError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Problem: Sendable, Hashable {
    /// A string that is not valid UTF-8: the offset of the first bad byte in the string (when
    /// writing) or in the text (when reading), and that byte.
    case invalidUTF8(offset: Int, byte: UInt8)
    /// A table key that is not valid UTF-8 (writing): the key, the offset of its first bad byte,
    /// and that byte.
    case invalidUTF8Key(LuaString, offset: Int, byte: UInt8)
    /// NaN or an infinity: JSON has no such numbers.
    case notFinite(Double)
    /// Nested deeper than the limit.
    case tooDeep(limit: Int)
    /// The text is not JSON, in words (reading).
    case syntax(String)
    /// An object has the same key (the same bytes) twice (reading).
    case duplicateKey(LuaString)
    /// A number too large for a float, as written in the text (reading).
    case numberOutOfRange(String)
  }

  /// Where the value is: for writing, the path of the value that cannot be written (of the table,
  /// for a key); for reading, where in the document the problem was met.
  public var path: LuaPath
  /// What is wrong.
  public var problem: Problem
  /// For reading: the byte of the JSON text at which the problem was met (from 0).
  public var offset: Int?

  /// An error at `path`.
  public init(path: LuaPath, problem: Problem, offset: Int? = nil) {
    self.path = path
    self.problem = problem
    self.offset = offset
  }

  public var description: String {
    "\(Self.shortened(path)): " + explanation + (offset.map { " (at byte \($0) of the text)" } ?? "")
  }

  /// `path`, with the middle of a very long one (a value nested a hundred levels) left out.
  static func shortened(_ path: LuaPath) -> String {
    let (head, tail) = (6, 3)
    guard path.components.count > head + tail + 1 else { return path.description }
    let start = LuaPath(root: path.root, components: Array(path.components.prefix(head))).description
    // NB: the tail under a one-letter root, which is then dropped: `.a[2]`, not `a[2]`.
    let end = LuaPath(root: "_", components: Array(path.components.suffix(tail))).description.dropFirst()
    return "\(start)…(\(path.components.count - head - tail) more)…\(end)"
  }

  /// The problem in words, without the path.
  public var explanation: String {
    switch problem {
    case let .invalidUTF8(offset, byte):
      "not valid UTF-8 at byte \(offset) (\(Self.hex(byte))); JSON text must be UTF-8"
    case let .invalidUTF8Key(key, offset, byte):
      "the key \(LuaLiteral.quote(key)) is not valid UTF-8 at byte \(offset) (\(Self.hex(byte))); JSON text must be UTF-8"
    case let .notFinite(number):
      "\(number.isNaN ? "NaN (not a number)" : number < 0 ? "-infinity" : "infinity") is not a JSON number"
    case let .tooDeep(limit):
      "nested deeper than the limit of \(limit) levels"
    case let .syntax(message):
      message
    case let .duplicateKey(key):
      "the key \(LuaLiteral.quote(key)) appears twice in one object"
    case let .numberOutOfRange(text):
      "the number \(text) is too large for a float"
    }
  }

  static func hex(_ byte: UInt8) -> String { "0x" + LuaLiteral.hex(byte) }
}
