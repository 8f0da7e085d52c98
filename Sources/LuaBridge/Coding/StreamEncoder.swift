struct StreamOptions {
  let depthLimit: Int
  let userInfo: [CodingUserInfoKey: any Sendable]
}

/// The `Encoder` behind ``LuaEncoded``: it writes straight into a push program, in the order
/// `encode(to:)` calls it, with no intermediate tree. Programs are sequential, so a container is
/// closed as soon as its parent is written to again; a type that later writes to a closed container
/// (or asks for a `superEncoder`) makes the encoder give up, and ``LuaEncoder`` re-encodes through
/// a ``LuaValue`` tree instead.
final class StreamEncoder: Encoder {
  enum Outcome {
    case written
    case needsTree
    case failed(LuaConversionError)
  }

  struct Open {
    let id: Int
    let offset: Int
    var count: Int
    let isArray: Bool
  }

  /// All mutable state lives behind one pointer: class properties would pay a dynamic exclusivity
  /// check on every access, and this is the hot path of pushing Codable values.
  struct State {
    let writer: UnsafeMutablePointer<LuaWriter>
    var open: [Open] = []
    var nextID = 0
    /// A value slot is waiting for exactly one value (after a key, in an array, at the top).
    var expectingValue = true
    var needsTree = false
    var error: LuaConversionError?
    var codingPath: [any CodingKey] = []
  }

  let state: UnsafeMutablePointer<State>
  let options: StreamOptions
  var codingPath: [any CodingKey] { state.pointee.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

  private init(state: UnsafeMutablePointer<State>, options: StreamOptions) {
    self.state = state
    self.options = options
  }

  static func encode<T: Encodable>(_ value: T, into writer: inout LuaWriter, options: StreamOptions) -> Outcome {
    withUnsafeMutablePointer(to: &writer) { writer in
      var state = State(writer: writer)
      return withUnsafeMutablePointer(to: &state) { encode(value, state: $0, options: options) }
    }
  }

  private static func encode<T: Encodable>(_ value: T, state pointer: UnsafeMutablePointer<State>, options: StreamOptions) -> Outcome {
    let encoder = StreamEncoder(state: pointer, options: options)
    do {
      try encoder.writeSlot(value)
    } catch {
      if pointer.pointee.needsTree { return .needsTree }
      return .failed(LuaEncoder.conversionError(error, at: pointer.pointee.codingPath))
    }
    if pointer.pointee.needsTree { return .needsTree }
    if let error = pointer.pointee.error { return .failed(error) }
    encoder.close(downTo: 0)
    return .written
  }

  // MARK: Slots and containers

  /// Writes `value` into the open slot: scalars directly, others through `encode(to:)`.
  func writeSlot<T: Encodable>(_ value: T) throws {
    if T.self == LuaValue.self {
      let value = unsafeBitCast(value, to: LuaValue.self)
      state.pointee.expectingValue = false
      do { try value.write(to: &state.pointee.writer.pointee) } catch {
        throw LuaConversionError(path: LuaPath(codingPath: codingPath + error.path.components.map(ComponentKey.init)), problem: error.problem)
      }
      return
    }
    if T.self == LuaString.self {
      // NB: a LuaString keeps its bytes; through `encode(to:)` it would have to be Swift text.
      state.pointee.expectingValue = false
      state.pointee.writer.pointee.write(unsafeBitCast(value, to: LuaString.self))
      return
    }
    let depth = state.pointee.open.count
    state.pointee.expectingValue = true
    try value.encode(to: self)
    if state.pointee.expectingValue {  // NB: encode(to:) wrote nothing: the slot holds nil
      state.pointee.expectingValue = false
      state.pointee.writer.pointee.writeNil()
    }
    close(downTo: depth)
  }

  /// Writes `value` as the value at `key` (the key already written), with `key` on the path.
  func writeSlot<T: Encodable>(_ value: T, key: any CodingKey) throws {
    state.pointee.codingPath.append(key)
    defer { state.pointee.codingPath.removeLast() }
    guard state.pointee.codingPath.count <= options.depthLimit else {
      throw LuaConversionError(path: LuaPath(codingPath: codingPath), problem: .tooDeep(limit: options.depthLimit))
    }
    try writeSlot(value)
  }

  /// Makes container `id` the innermost open one, closing those above it. Returns false (and
  /// asks for the tree encoder) if it was closed already.
  func prepare(_ id: Int) -> Bool {
    if state.pointee.open.last?.id == id { return true }  // NB: the common case, checked first
    if state.pointee.needsTree || state.pointee.error != nil { return false }
    guard let position = state.pointee.open.lastIndex(where: { $0.id == id }) else {
      state.pointee.needsTree = true
      return false
    }
    close(downTo: position + 1)
    return true
  }

  func close(downTo depth: Int) {
    while state.pointee.open.count > depth {
      let container = state.pointee.open.removeLast()
      if container.isArray { state.pointee.writer.pointee.endArray() } else { state.pointee.writer.pointee.endTable() }
      state.pointee.writer.pointee.patchHint(at: container.offset, container.count)
    }
  }

  /// Opens a container in the waiting slot; -1 if there is no slot (the tree encoder takes over).
  func begin(isArray: Bool) -> Int {
    guard state.pointee.expectingValue, !state.pointee.needsTree else {
      state.pointee.needsTree = true
      return -1
    }
    if state.pointee.codingPath.count >= options.depthLimit, state.pointee.error == nil {
      state.pointee.error = LuaConversionError(path: LuaPath(codingPath: codingPath), problem: .tooDeep(limit: options.depthLimit))
    }
    state.pointee.expectingValue = false
    let id = state.pointee.nextID
    state.pointee.nextID += 1
    let offset = state.pointee.writer.pointee.count
    if isArray { state.pointee.writer.pointee.beginArray() } else { state.pointee.writer.pointee.beginTable() }
    state.pointee.open.append(Open(id: id, offset: offset, count: 0, isArray: isArray))
    return id
  }

  /// Counts one more entry in the innermost container (for its size hint).
  func countEntry() { state.pointee.open[state.pointee.open.count - 1].count += 1 }

  // MARK: Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let id = begin(isArray: false)
    return KeyedEncodingContainer(StreamKeyedContainer<Key>(encoder: self, id: id, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let id = begin(isArray: true)
    return StreamUnkeyedContainer(encoder: self, id: id, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    StreamSingleContainer(encoder: self, codingPath: codingPath)
  }
}

/// A path component as a coding key (to extend a coding path with a ``LuaValue``'s inner path).
struct ComponentKey: CodingKey {
  let component: LuaPath.Component
  init(_ component: LuaPath.Component) { self.component = component }
  var stringValue: String {
    switch component {
    case .key(let k): k
    case .index(let i): "Index \(i - 1)"
    }
  }
  var intValue: Int? { nil }
  init?(stringValue: String) { return nil }
  init?(intValue: Int) { return nil }
}
