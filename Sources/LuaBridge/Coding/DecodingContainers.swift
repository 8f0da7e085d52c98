// The containers of ``LuaDecoder``.

struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: ValueDecoder
  let entries: [LuaString: LuaValue]
  var codingPath: [any CodingKey] { decoder.codingPath }
  var allKeys: [Key] { entries.keys.compactMap { $0.string.flatMap(Key.init(stringValue:)) } }

  func contains(_ key: Key) -> Bool { !(entries[LuaString(key.stringValue)] ?? .nil).isNil }

  private func child(_ key: Key) -> ValueDecoder {
    decoder.child(entries[LuaString(key.stringValue)] ?? .nil, key)
  }

  private func required(_ key: Key, _ expected: String) throws -> ValueDecoder {
    let child = child(key)
    if child.value.isNil {
      throw LuaConversionError(path: LuaPath(codingPath: child.codingPath), problem: .missing(expected: expected))
    }
    return child
  }

  func decodeNil(forKey key: Key) throws -> Bool { child(key).value.isNil }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(key, "a boolean").decodeBool() }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(key, "a string").decodeString() }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(key, "a number").decodeDouble() }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try required(key, "a number").decodeDouble()) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(key, "an integer").decodeInteger(type) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(key, "an integer").decodeInteger(type) }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let child = child(key)
    if child.value.isNil && type != LuaValue.self {
      // NB: let types that accept nil (a custom optional-like type) try, but name the key if they fail.
      do { return try child.decode(type) } catch {
        throw LuaConversionError(path: LuaPath(codingPath: child.codingPath), problem: .missing(expected: "a value of type \(T.self)"))
      }
    }
    return try child.decode(type)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
    try required(key, "a table").container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try required(key, "an array").unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder { decoder.child(entries["super"] ?? .nil, DynamicKey("super")) }
  func superDecoder(forKey key: Key) throws -> any Decoder { child(key) }
}

struct UnkeyedValueContainer: UnkeyedDecodingContainer {
  let decoder: ValueDecoder
  let elements: [LuaValue]
  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }
  private(set) var currentIndex = 0

  init(decoder: ValueDecoder, elements: [LuaValue]) {
    self.decoder = decoder
    self.elements = elements
  }

  private mutating func next() throws -> ValueDecoder {
    guard !isAtEnd else {
      throw LuaConversionError(
        path: LuaPath(codingPath: codingPath + [IndexKey(currentIndex)]), problem: .missing(expected: "another element"))
    }
    defer { currentIndex += 1 }
    return decoder.child(elements[currentIndex], IndexKey(currentIndex))
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex].isNil else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decodeBool() }
  mutating func decode(_ type: String.Type) throws -> String { try next().decodeString() }
  mutating func decode(_ type: Double.Type) throws -> Double { try next().decodeDouble() }
  mutating func decode(_ type: Float.Type) throws -> Float { Float(try next().decodeDouble()) }
  mutating func decode(_ type: Int.Type) throws -> Int { try next().decodeInteger(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decodeInteger(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decodeInteger(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decodeInteger(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decodeInteger(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decodeInteger(type) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
    try next().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
  mutating func superDecoder() throws -> any Decoder { try next() }
}

struct SingleValueContainer: SingleValueDecodingContainer {
  let decoder: ValueDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool { decoder.value.isNil }
  func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
  func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
  func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble() }
  func decode(_ type: Float.Type) throws -> Float { Float(try decoder.decodeDouble()) }
  func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
