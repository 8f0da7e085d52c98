/// Decodes any `Decodable` Swift type from Lua data (a ``LuaValue``; see ``LuaTable/decode(_:decoder:)``
/// and ``LuaArguments/decode(_:at:decoder:)`` to decode from the stack).
///
/// ```swift
/// let todos = try LuaDecoder().decode([Todo].self, from: value)
/// // items[2].title: expected a string, found an integer (on failure)
/// ```
///
/// Mapping (the mirror of ``LuaEncoder``): tables decode keyed types, arrays unkeyed ones, and an
/// *empty* table decodes either (Lua cannot tell `{}` the array from `{}` the object). Integer types
/// accept integers and floats with an exact value in range; `Double`/`Float` accept both subtypes;
/// `String` needs valid UTF-8; `Bool` needs a boolean (no Lua truthiness). A missing key or nil
/// decodes as `nil` for optionals. Errors name the path in Lua's terms (`items[2].title`).
public struct LuaDecoder: Sendable {
  /// Passed to `init(from:)` as `decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable]

  /// A decoder.
  public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
  }

  /// Decodes a `T` from `value`.
  public func decode<T: Decodable>(_ type: T.Type, from value: LuaValue) throws(LuaConversionError) -> T {
    do {
      return try ValueDecoder(value: value, codingPath: [], userInfo: userInfo).decode(type)
    } catch let error as LuaConversionError {
      throw error
    } catch let error as DecodingError {
      throw Self.conversionError(error)
    } catch {
      throw LuaConversionError(path: LuaPath(root: ""), problem: .other(String(describing: error)))
    }
  }

  static func conversionError(_ error: DecodingError) -> LuaConversionError {
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
      return LuaConversionError(path: LuaPath(codingPath: context.codingPath), problem: .other(context.debugDescription))
    @unknown default:
      return LuaConversionError(path: LuaPath(root: ""), problem: .other(String(describing: error)))
    }
  }
}

struct ValueDecoder: Decoder {
  let value: LuaValue
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  init(value: LuaValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
    self.value = value
    self.codingPath = codingPath
    self.userInfo = userInfo
  }

  func mismatch(_ expected: String) -> LuaConversionError {
    LuaConversionError(path: LuaPath(codingPath: codingPath), problem: .typeMismatch(expected: expected, found: value.describedForError))
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if type == LuaValue.self { return value as! T }
    // NB: a LuaString keeps its bytes; through `init(from:)` it would have to be Swift text.
    if type == LuaString.self, case let .string(string) = value { return string as! T }
    return try T(from: self)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch value {
    case .table(let entries): return KeyedDecodingContainer(KeyedValueContainer(decoder: self, entries: entries))
    case .array([]): return KeyedDecodingContainer(KeyedValueContainer(decoder: self, entries: [:]))
    default: throw mismatch("a table")
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    switch value {
    case .array(let elements): return UnkeyedValueContainer(decoder: self, elements: elements)
    case .table(let entries) where entries.isEmpty: return UnkeyedValueContainer(decoder: self, elements: [])
    default: throw mismatch("an array")
    }
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

  func child(_ value: LuaValue, _ key: any CodingKey) -> ValueDecoder {
    ValueDecoder(value: value, codingPath: codingPath + [key], userInfo: [:], inherited: userInfo)
  }

  private init(value: LuaValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable], inherited: [CodingUserInfoKey: Any]) {
    self.value = value
    self.codingPath = codingPath
    self.userInfo = inherited
  }

  // MARK: Scalars

  func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard let wide = value.integerValue else { throw mismatch("an integer") }
    guard let exact = T(exactly: wide) else {
      throw LuaConversionError(path: LuaPath(codingPath: codingPath), problem: .numberOutOfRange(value: String(wide), type: String(describing: T.self)))
    }
    return exact
  }

  func decodeDouble() throws -> Double {
    guard let d = value.numberValue else { throw mismatch("a number") }
    return d
  }

  func decodeString() throws -> String {
    guard case .string(let s) = value else { throw mismatch("a string") }
    guard let text = s.string else { throw LuaConversionError(path: LuaPath(codingPath: codingPath), problem: .invalidUTF8) }
    return text
  }

  func decodeBool() throws -> Bool {
    guard case .boolean(let b) = value else { throw mismatch("a boolean") }
    return b
  }
}

extension LuaValue {
  /// `an integer (3)`, `a string ("x")`, `a table`: what was found, for messages.
  var describedForError: String {
    switch self {
    case .nil: "nil"
    case .boolean(let b): "a boolean (\(b))"
    case .integer(let i): "an integer (\(i))"
    case .number(let d): "a float (\(LuaNotation.format(d)))"
    case .string(let s): "a string (\(LuaLiteral.quote(LuaString(bytes: s.bytes.prefix(40)))))"
    case .array: "an array"
    case .table: "a table"
    }
  }
}
