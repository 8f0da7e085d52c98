/// `LuaValue` encodes as the JSON you would expect, so hosts can print states:
///
/// ```swift
/// let json = try JSONEncoder().encode(LuaValue(["count": 3, "tags": ["a"]]))
/// // {"count":3,"tags":["a"]}
/// ```
///
/// Rules: `.nil` is `null`; `.integer` and `.number` are JSON numbers (JSON cannot tell `3` from
/// `3.0`, and decoding turns every integral number into `.integer`); NaN and infinities are not JSON
/// and make `JSONEncoder` throw unless it has a `nonConformingFloatEncodingStrategy`; strings with
/// invalid UTF-8 are written lossily (U+FFFD); tables are objects with keys in sorted order.
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
      try c.encode(s.lossyString)
    case .array(let elements):
      var c = encoder.unkeyedContainer()
      for element in elements { try c.encode(element) }
    case .table(let entries):
      var c = encoder.container(keyedBy: DynamicKey.self)
      for key in entries.keys.sorted() {
        try c.encode(entries[key]!, forKey: DynamicKey(key.lossyString))
      }
    }
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
