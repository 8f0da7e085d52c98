/// A value could not be converted between Swift and Lua; says where and why.
///
/// ```swift
/// do { _ = try vm.call(f) } catch let error as LuaError {
///   print(error)   // conversion error: result #1.items[3].onTap: a function is not data ...
/// }
/// ```
///
/// Thrown by ``LuaEncoder`` and ``LuaDecoder``; a ``LuaVM`` wraps it in a ``LuaError`` of kind
/// ``LuaError/Kind/conversion`` (see ``LuaError/conversion``).
public struct LuaConversionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Problem: Sendable, Hashable {
    /// A function, userdata or thread where data was expected (the Lua type name).
    case notData(type: String)
    /// A table key that is neither a string nor an integer (the key's type name).
    case unsupportedKey(type: String)
    /// An integer key and a string key that read as the same string key.
    case collidingKeys(String)
    /// The table contains itself; the associated path is where it was first met.
    case cycle(firstSeenAt: LuaPath)
    /// Nested deeper than the limit.
    case tooDeep(limit: Int)
    /// The value has another type than the one expected.
    case typeMismatch(expected: String, found: String)
    /// A key that must be present is missing.
    case missing(expected: String)
    /// A number that does not fit the Swift type.
    case numberOutOfRange(value: String, type: String)
    /// A string that must be text holds invalid UTF-8.
    case invalidUTF8
    /// A reference to a value of another ``LuaVM``.
    case foreignReference
    /// Anything else, in words.
    case other(String)
  }

  /// Where the value is.
  public var path: LuaPath
  /// What is wrong with it.
  public var problem: Problem

  /// An error at `path`.
  public init(path: LuaPath, problem: Problem) {
    self.path = path
    self.problem = problem
  }

  public var description: String {
    "\(path): " + explanation
  }

  /// The problem in words, without the path.
  public var explanation: String {
    switch problem {
    case .notData(let type):
      "a \(type) is not data (only nil, booleans, numbers, strings and tables convert); hold it with a LuaRef"
    case .unsupportedKey(let type):
      "a table key of type \(type) cannot be converted (keys must be strings or integers)"
    case .collidingKeys(let key):
      "the integer key \(key) and the string key \"\(key)\" would be the same key"
    case .cycle(let first):
      "the table contains itself (a cycle back to \(first))"
    case .tooDeep(let limit):
      "nested deeper than the limit of \(limit) levels"
    case .typeMismatch(let expected, let found):
      "expected \(expected), found \(found)"
    case .missing(let expected):
      "missing (expected \(expected))"
    case .numberOutOfRange(let value, let type):
      "\(value) does not fit in \(type)"
    case .invalidUTF8:
      "the string is not valid UTF-8 (read it as LuaString to keep its bytes)"
    case .foreignReference:
      "a reference that belongs to another LuaVM"
    case .other(let message):
      message
    }
  }
}
