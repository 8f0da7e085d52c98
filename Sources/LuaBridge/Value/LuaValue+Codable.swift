/// `LuaValue` is `Codable`, so it can sit inside your own `Codable` types and cross any Swift
/// encoder:
///
/// ```swift
/// struct Envelope: Codable { var id: Int; var payload: LuaValue }
/// let data = try JSONEncoder().encode(Envelope(id: 1, payload: ["count": 3]))
/// ```
///
/// To write or read JSON, prefer ``LuaJSONEncoder`` and ``LuaJSONDecoder``: they work on bytes and
/// lose nothing. Through a Swift `Encoder` and `Decoder`, text is Swift `String`s, so:
///
/// - **Strings and keys must be valid UTF-8.** One that is not throws `EncodingError.invalidValue`
///   naming its coding path and the offset of the first bad byte (never a silent U+FFFD).
/// - **Keys that are equal as Swift strings throw.** `"é"` (U+00E9) and `"e"` + U+0301 are two Lua
///   keys but one Swift `String`: encoding a table with both throws `EncodingError.invalidValue`
///   rather than letting the encoder keep one of them.
/// - **Decoding** sees what the decoder hands over: `JSONDecoder` itself keeps one value of two keys
///   that are equal as Swift strings, before `LuaValue` is asked. Use ``LuaJSONDecoder`` to keep
///   both, or to have duplicate keys reported.
/// - **Numbers**: `.integer` and `.number` encode as the encoder writes integers and doubles;
///   NaN and infinities follow the encoder's rules (`JSONEncoder` throws unless it has a
///   `nonConformingFloatEncodingStrategy`). Decoding tries an integer first, so `JSONDecoder`
///   reads `3.0` as `.integer(3)`.
/// - `.nil` is a nil value; tables are keyed containers written in byte order of their keys.
///
/// ``LuaEncoder`` and ``LuaDecoder`` pass `LuaValue` (and ``LuaString``) through unchanged.
extension LuaValue: Codable {
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.singleValueContainer() {
      if container.decodeNil() { self = .nil; return }
      if let b = try? container.decode(Bool.self) { self = .boolean(b); return }
      if let i = try? container.decode(Int64.self) { self = .integer(i); return }
      if let d = try? container.decode(Double.self) { self = .number(d); return }
      if let s = try? container.decode(String.self) { self = .string(LuaString(s)); return }
    }
    if var array = try? decoder.unkeyedContainer() {
      var elements: [LuaValue] = []
      while !array.isAtEnd { elements.append(try array.decode(LuaValue.self)) }
      self = .array(elements)
      return
    }
    let keyed = try decoder.container(keyedBy: DynamicKey.self)
    var entries: [LuaString: LuaValue] = [:]
    for key in keyed.allKeys {
      entries[LuaString(key.stringValue)] = try keyed.decode(LuaValue.self, forKey: key)
    }
    self = .table(entries)
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .nil:
      var c = encoder.singleValueContainer()
      try c.encodeNil()
    case .boolean(let b):
      var c = encoder.singleValueContainer()
      try c.encode(b)
    case .integer(let i):
      var c = encoder.singleValueContainer()
      try c.encode(i)
    case .number(let d):
      var c = encoder.singleValueContainer()
      try c.encode(d)
    case .string(let s):
      var c = encoder.singleValueContainer()
      try c.encode(try s.text(codingPath: encoder.codingPath))
    case .array(let elements):
      var c = encoder.unkeyedContainer()
      for element in elements { try c.encode(element) }
    case .table(let entries):
      var c = encoder.container(keyedBy: DynamicKey.self)
      var written: [String: LuaString] = [:]
      for key in entries.keys.sorted() {
        let text = try key.text(codingPath: encoder.codingPath, isKey: true)
        // NB: Swift compares strings by canonical equivalence: two Lua keys would be one key here.
        if let earlier = written.updateValue(key, forKey: text) {
          throw EncodingError.invalidValue(
            self,
            .init(
              codingPath: encoder.codingPath,
              debugDescription: """
                the keys \(LuaLiteral.quote(earlier)) and \(LuaLiteral.quote(key)) are different bytes but the \
                same Swift string, so an Encoder would keep only one of them; write JSON with LuaJSONEncoder
                """))
        }
        try c.encode(entries[key]!, forKey: DynamicKey(text))
      }
    }
  }
}

extension LuaString {
  /// The text, or an `EncodingError` naming the first byte that is not UTF-8.
  func text(codingPath: [any CodingKey], isKey: Bool = false) throws -> String {
    if let text = string { return text }
    let offset = UTF8Check.firstInvalidOffset(bytes) ?? 0
    throw EncodingError.invalidValue(
      self,
      .init(
        codingPath: codingPath,
        debugDescription: """
          \(isKey ? "the key " : "the string ")\(LuaLiteral.quote(self)) is not valid UTF-8 at byte \(offset) \
          (\(LuaJSONError.hex(bytes[offset]))), so it cannot be a Swift String
          """))
  }
}

/// A coding key made from any string.
struct DynamicKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { self.stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { return nil }
}
