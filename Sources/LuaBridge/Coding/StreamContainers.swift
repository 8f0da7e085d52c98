// The containers of ``StreamEncoder``. Each write first makes its container the innermost open
// one (`prepare`); if that is impossible the encoder switches to the tree encoder, and the rest of
// the writes are ignored.

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: StreamEncoder
  let id: Int
  let codingPath: [any CodingKey]

  /// Writes the key of a new entry; false if the write must be skipped.
  private func entry(_ key: Key) -> Bool {
    guard encoder.prepare(id) else { return false }
    encoder.state.pointee.writer.pointee.key(key.stringValue)
    encoder.countEntry()
    return true
  }

  mutating func encodeNil(forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.writeNil() } }
  mutating func encode(_ value: Bool, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: String, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: Double, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: Float, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(Double(value)) } }
  mutating func encode(_ value: Int, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int8, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int16, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int32, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int64, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { if entry(key) { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeWide(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeWide(value, key) }

  private func encodeWide<T: BinaryInteger>(_ value: T, _ key: Key) throws {
    let exact = try IntegerConversion.int64(value, at: codingPath + [key])
    if entry(key) { encoder.state.pointee.writer.pointee.write(exact) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    if entry(key) { try encoder.writeSlot(value, key: key) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
    let ok = entry(key)
    encoder.state.pointee.codingPath.append(key)
    defer { encoder.state.pointee.codingPath.removeLast() }
    if ok { encoder.state.pointee.expectingValue = true }
    return encoder.container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let ok = entry(key)
    encoder.state.pointee.codingPath.append(key)
    defer { encoder.state.pointee.codingPath.removeLast() }
    if ok { encoder.state.pointee.expectingValue = true }
    return encoder.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { giveUp() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { giveUp() }

  private func giveUp() -> any Encoder {
    encoder.state.pointee.needsTree = true
    return encoder
  }
}

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: StreamEncoder
  let id: Int
  let codingPath: [any CodingKey]
  private(set) var count = 0

  init(encoder: StreamEncoder, id: Int, codingPath: [any CodingKey]) {
    self.encoder = encoder
    self.id = id
    self.codingPath = codingPath
  }

  private mutating func element() -> Bool {
    guard encoder.prepare(id) else { return false }
    encoder.countEntry()
    count += 1
    return true
  }

  mutating func encodeNil() throws { if element() { encoder.state.pointee.writer.pointee.writeNil() } }
  mutating func encode(_ value: Bool) throws { if element() { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: String) throws { if element() { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: Double) throws { if element() { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: Float) throws { if element() { encoder.state.pointee.writer.pointee.write(Double(value)) } }
  mutating func encode(_ value: Int) throws { if element() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int8) throws { if element() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int16) throws { if element() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int32) throws { if element() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int64) throws { if element() { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: UInt8) throws { if element() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt16) throws { if element() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt32) throws { if element() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt) throws { try encodeWide(value) }
  mutating func encode(_ value: UInt64) throws { try encodeWide(value) }

  private mutating func encodeWide<T: BinaryInteger>(_ value: T) throws {
    let exact = try IntegerConversion.int64(value, at: codingPath + [IndexKey(count)])
    if element() { encoder.state.pointee.writer.pointee.write(exact) }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let key = IndexKey(count)
    if element() { try encoder.writeSlot(value, key: key) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let key = IndexKey(count)
    let ok = element()
    encoder.state.pointee.codingPath.append(key)
    defer { encoder.state.pointee.codingPath.removeLast() }
    if ok { encoder.state.pointee.expectingValue = true }
    return encoder.container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let key = IndexKey(count)
    let ok = element()
    encoder.state.pointee.codingPath.append(key)
    defer { encoder.state.pointee.codingPath.removeLast() }
    if ok { encoder.state.pointee.expectingValue = true }
    return encoder.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    encoder.state.pointee.needsTree = true
    return encoder
  }
}

struct StreamSingleContainer: SingleValueEncodingContainer {
  let encoder: StreamEncoder
  let codingPath: [any CodingKey]

  /// Claims the waiting slot; false (tree encoder) if there is none.
  private func slot() -> Bool {
    guard encoder.state.pointee.expectingValue, !encoder.state.pointee.needsTree else {
      encoder.state.pointee.needsTree = true
      return false
    }
    encoder.state.pointee.expectingValue = false
    return true
  }

  mutating func encodeNil() throws { if slot() { encoder.state.pointee.writer.pointee.writeNil() } }
  mutating func encode(_ value: Bool) throws { if slot() { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: String) throws { if slot() { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: Double) throws { if slot() { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: Float) throws { if slot() { encoder.state.pointee.writer.pointee.write(Double(value)) } }
  mutating func encode(_ value: Int) throws { if slot() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int8) throws { if slot() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int16) throws { if slot() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int32) throws { if slot() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: Int64) throws { if slot() { encoder.state.pointee.writer.pointee.write(value) } }
  mutating func encode(_ value: UInt8) throws { if slot() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt16) throws { if slot() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt32) throws { if slot() { encoder.state.pointee.writer.pointee.write(Int64(value)) } }
  mutating func encode(_ value: UInt) throws { try encodeWide(value) }
  mutating func encode(_ value: UInt64) throws { try encodeWide(value) }

  private func encodeWide<T: BinaryInteger>(_ value: T) throws {
    let exact = try IntegerConversion.int64(value, at: codingPath)
    if slot() { encoder.state.pointee.writer.pointee.write(exact) }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    guard encoder.state.pointee.expectingValue, !encoder.state.pointee.needsTree else {
      encoder.state.pointee.needsTree = true
      return
    }
    if T.self == LuaValue.self {
      let value = unsafeBitCast(value, to: LuaValue.self)
      encoder.state.pointee.expectingValue = false
      try value.write(to: &encoder.state.pointee.writer.pointee)
      return
    }
    if T.self == LuaString.self {
      encoder.state.pointee.expectingValue = false
      encoder.state.pointee.writer.pointee.write(unsafeBitCast(value, to: LuaString.self))
      return
    }
    // NB: the slot stays open for the containers of `value`, at the same coding path.
    try value.encode(to: encoder)
  }
}
