/// The `Encoder` that builds a ``LuaValue`` tree. Containers are reference nodes, so they can be
/// written in any order, as Codable allows.
final class TreeNode {
  enum Child {
    case value(LuaValue)
    case node(TreeNode)
  }

  enum Kind { case empty, keyed, unkeyed, single }

  var kind = Kind.empty
  var keyed: [LuaString: Child] = [:]
  var unkeyed: [Child] = []
  var single: Child = .value(.nil)

  func finish() -> LuaValue {
    switch kind {
    case .empty: return .nil
    case .single: return Self.finish(single)
    case .unkeyed: return .array(unkeyed.map(Self.finish))
    case .keyed:
      var entries: [LuaString: LuaValue] = [:]
      for (key, child) in keyed {
        let value = Self.finish(child)
        if !value.isNil { entries[key] = value }
      }
      return .table(entries)
    }
  }

  static func finish(_ child: Child) -> LuaValue {
    switch child {
    case .value(let v): v
    case .node(let n): n.finish()
    }
  }
}

final class TreeEncoder: Encoder {
  let node: TreeNode
  let codingPath: [any CodingKey]
  let options: LuaEncoder
  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }
  /// The path of the innermost value being encoded, for errors thrown by foreign code.
  var deepestPath: [any CodingKey]

  init(node: TreeNode, codingPath: [any CodingKey], options: LuaEncoder) {
    self.node = node
    self.codingPath = codingPath
    self.options = options
    self.deepestPath = codingPath
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if node.kind != .keyed { node.kind = .keyed; node.keyed = [:] }
    return KeyedEncodingContainer(TreeKeyedContainer<Key>(encoder: self, node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if node.kind != .unkeyed { node.kind = .unkeyed; node.unkeyed = [] }
    return TreeUnkeyedContainer(encoder: self, node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    TreeSingleContainer(encoder: self, node: node, codingPath: codingPath)
  }

  /// The child for `value` at `path`: scalars directly, others through a nested encoder.
  func child<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> TreeNode.Child {
    if let value = value as? LuaValue { return .value(value) }
    // NB: a LuaString keeps its bytes; through `encode(to:)` it would have to be Swift text.
    if let value = value as? LuaString { return .value(.string(value)) }
    guard path.count <= options.depthLimit else {
      throw LuaConversionError(path: LuaPath(codingPath: path), problem: .tooDeep(limit: options.depthLimit))
    }
    let child = TreeNode()
    let encoder = TreeEncoder(node: child, codingPath: path, options: options)
    deepestPath = path
    do { try value.encode(to: encoder) } catch {
      deepestPath = encoder.deepestPath
      throw error
    }
    return .node(child)
  }
}

/// Scalars every container writes the same way.
protocol TreeScalarWriting {
  var codingPath: [any CodingKey] { get }
}

extension TreeScalarWriting {
  func scalar<T: BinaryInteger>(_ value: T, at path: [any CodingKey]) throws -> LuaValue {
    .integer(try IntegerConversion.int64(value, at: path))
  }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, TreeScalarWriting {
  let encoder: TreeEncoder
  let node: TreeNode
  let codingPath: [any CodingKey]

  private func set(_ value: LuaValue, _ key: Key) { node.keyed[LuaString(key.stringValue)] = .value(value) }

  mutating func encodeNil(forKey key: Key) throws { set(.nil, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.boolean(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(LuaString(value)), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { set(.number(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { set(try scalar(value, at: codingPath + [key]), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try scalar(value, at: codingPath + [key]), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    node.keyed[LuaString(key.stringValue)] = try encoder.child(value, at: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
    let child = TreeNode()
    node.keyed[LuaString(key.stringValue)] = .node(child)
    return TreeEncoder(node: child, codingPath: codingPath + [key], options: encoder.options).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = TreeNode()
    node.keyed[LuaString(key.stringValue)] = .node(child)
    return TreeEncoder(node: child, codingPath: codingPath + [key], options: encoder.options).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

  private func superEncoder(named name: String) -> any Encoder {
    let child = TreeNode()
    node.keyed[LuaString(name)] = .node(child)
    return TreeEncoder(node: child, codingPath: codingPath + [DynamicKey(name)], options: encoder.options)
  }
}

struct TreeUnkeyedContainer: UnkeyedEncodingContainer, TreeScalarWriting {
  let encoder: TreeEncoder
  let node: TreeNode
  let codingPath: [any CodingKey]
  var count: Int { node.unkeyed.count }

  private func append(_ value: LuaValue) { node.unkeyed.append(.value(value)) }
  private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

  mutating func encodeNil() throws { append(.nil) }
  mutating func encode(_ value: Bool) throws { append(.boolean(value)) }
  mutating func encode(_ value: String) throws { append(.string(LuaString(value))) }
  mutating func encode(_ value: Double) throws { append(.number(value)) }
  mutating func encode(_ value: Float) throws { append(.number(Double(value))) }
  mutating func encode(_ value: Int) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { append(.integer(value)) }
  mutating func encode(_ value: UInt) throws { append(try scalar(value, at: nextPath)) }
  mutating func encode(_ value: UInt8) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { append(try scalar(value, at: nextPath)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let child = try encoder.child(value, at: nextPath)
    node.unkeyed.append(child)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let child = TreeNode()
    let path = nextPath
    node.unkeyed.append(.node(child))
    return TreeEncoder(node: child, codingPath: path, options: encoder.options).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = TreeNode()
    let path = nextPath
    node.unkeyed.append(.node(child))
    return TreeEncoder(node: child, codingPath: path, options: encoder.options).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let child = TreeNode()
    let path = nextPath
    node.unkeyed.append(.node(child))
    return TreeEncoder(node: child, codingPath: path, options: encoder.options)
  }
}

struct TreeSingleContainer: SingleValueEncodingContainer, TreeScalarWriting {
  let encoder: TreeEncoder
  let node: TreeNode
  let codingPath: [any CodingKey]

  private func set(_ value: LuaValue) {
    node.kind = .single
    node.single = .value(value)
  }

  mutating func encodeNil() throws { set(.nil) }
  mutating func encode(_ value: Bool) throws { set(.boolean(value)) }
  mutating func encode(_ value: String) throws { set(.string(LuaString(value))) }
  mutating func encode(_ value: Double) throws { set(.number(value)) }
  mutating func encode(_ value: Float) throws { set(.number(Double(value))) }
  mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { set(.integer(value)) }
  mutating func encode(_ value: UInt) throws { set(try scalar(value, at: codingPath)) }
  mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { set(try scalar(value, at: codingPath)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let value = value as? LuaValue { return set(value) }
    // NB: a single value container wraps the value in place: same node, same path.
    try value.encode(to: encoder)
  }
}
