import CLua
import CLuaShim

/// Reads Lua values into ``LuaValue`` without calling anything that can raise.
///
/// Only raw, non-allocating API is used here: `lua_type`, `lua_toboolean`, `lua_tointegerx`,
/// `lua_tonumberx`, `lua_tolstring` on values that *are* strings (on numbers it would convert in
/// place and allocate), `lua_next`, `lua_getmetatable`, `lua_checkstack` (which reports failure
/// instead of raising). So a read can fail only with a ``LuaConversionError``, and the caller
/// restores the stack top afterwards.
struct StackReader {
  let state: OpaquePointer
  let depthLimit: Int
  // NB: both are kept cheap for the hot path (a reducer's results are read on every action):
  //     the tables on the current branch, by depth (the table at depth d has `path.prefix(d)`),
  //     found again by a scan no longer than the depth limit rather than a hash; and string keys
  //     stay bytes until an error needs their text.
  private var branch: [UnsafeRawPointer] = []
  private var path: [Step] = []
  // NB: past the first few keys, each key is kept by the address of its Lua string, so that a key
  //     every row of a list repeats is one `LuaString` (one allocation, shared) rather than one
  //     per row. The addresses hold for the whole read: every string seen is a key of a table
  //     the read still holds (the value read is on the stack, and no one changes it meanwhile), so
  //     no collection, not even an emergency one while the stack grows, can free it and reuse its
  //     address. (A small read, such as an effect's description, gains nothing from a cache and
  //     pays for none.)
  private var keysRead = 0
  private var keys: [UnsafeRawPointer: LuaString] = [:]
  private static let keysBeforeCaching = 32
  private static let keysCached = 256

  private enum Step {
    case key(LuaString)
    case index(Int)

    var component: LuaPath.Component {
      switch self {
      case let .key(key): return .key(key.lossyString)
      case let .index(index): return .index(index)
      }
    }
  }

  init(state: OpaquePointer, depthLimit: Int) {
    self.state = state
    self.depthLimit = depthLimit
  }

  /// The value at absolute index `index`.
  mutating func read(at index: Int32) throws(LuaConversionError) -> LuaValue {
    let L = state
    switch lua_type(L, index) {
    case LUA_TNIL, LUA_TNONE:
      return .nil
    case LUA_TBOOLEAN:
      return .boolean(lua_toboolean(L, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(L, index) != 0 { return .integer(lua_tointegerx(L, index, nil)) }
      return .number(lua_tonumberx(L, index, nil))
    case LUA_TSTRING:
      return .string(Self.string(L, at: index))
    case LUA_TTABLE:
      return try readTable(at: index)
    case let type:
      throw failure(.notData(type: Self.typeName(L, type)))
    }
  }

  static func string(_ L: OpaquePointer, at index: Int32) -> LuaString {
    var length = 0
    guard let chars = lua_tolstring(L, index, &length) else { return LuaString(bytes: []) }
    return LuaString(bytes: UnsafeRawBufferPointer(start: chars, count: length))
  }

  /// The string key at `index` (see `keys`).
  private mutating func key(at index: Int32) -> LuaString {
    keysRead += 1
    guard keysRead > Self.keysBeforeCaching else { return Self.string(state, at: index) }
    var length = 0
    guard let chars = lua_tolstring(state, index, &length) else { return LuaString(bytes: []) }
    let address = UnsafeRawPointer(chars)
    if let known = keys[address] { return known }
    let key = LuaString(bytes: UnsafeRawBufferPointer(start: chars, count: length))
    // NB: a map with keys of its own (ids as keys) would fill the cache for nothing: it keeps the
    //     first few hundred, the field names a list's rows repeat.
    if keys.count < Self.keysCached { keys[address] = key }
    return key
  }

  static func typeName(_ L: OpaquePointer, _ type: Int32) -> String {
    String(cString: lua_typename(L, type))
  }

  private func failure(_ problem: LuaConversionError.Problem) -> LuaConversionError {
    LuaConversionError(path: LuaPath(root: "", components: path.map(\.component)), problem: problem)
  }

  private mutating func readTable(at index: Int32) throws(LuaConversionError) -> LuaValue {
    let L = state
    let identity = lua_topointer(L, index)!
    if let depth = branch.firstIndex(of: identity) {
      throw failure(.cycle(firstSeenAt: LuaPath(root: "", components: path.prefix(depth).map(\.component))))
    }
    guard path.count < depthLimit, lua_checkstack(L, 4) != 0 else { throw failure(.tooDeep(limit: depthLimit)) }
    branch.append(identity)
    defer { branch.removeLast() }

    // NB: string keys go straight into the table's entries: a Lua table's string keys are distinct.
    var integerKeys: [(Int64, LuaValue)] = []
    var entries: [LuaString: LuaValue] = [:]
    let keyIndex = lua_gettop(L) + 1
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      switch lua_type(L, keyIndex) {
      case LUA_TSTRING:
        let key = self.key(at: keyIndex)
        path.append(.key(key))
        let value = try read(at: keyIndex + 1)
        path.removeLast()
        entries[key] = value
      case LUA_TNUMBER where lua_isinteger(L, keyIndex) != 0:
        let integerKey = lua_tointegerx(L, keyIndex, nil)
        path.append(.index(Int(integerKey)))
        let value = try read(at: keyIndex + 1)
        path.removeLast()
        integerKeys.append((integerKey, value))
      case let type:
        let name = type == LUA_TNUMBER ? "float" : Self.typeName(L, type)
        throw failure(.unsupportedKey(type: name))
      }
      lunar_pop(L, 1)
    }

    if entries.isEmpty && integerKeys.isEmpty {
      return lunar_is_array_marked(L, index) != 0 ? .array([]) : .table([:])
    }
    if entries.isEmpty, let array = Self.array(from: integerKeys) {
      return .array(array)
    }
    // NB: a check rather than a trap on a duplicate: an integer key read as its decimal string may
    //     meet a string key of the same text.
    if !integerKeys.isEmpty { entries.reserveCapacity(entries.count + integerKeys.count) }
    for (key, value) in integerKeys {
      let name = LuaString(String(key))
      guard entries[name] == nil else {
        path.append(.index(Int(key)))
        throw failure(.collidingKeys(String(key)))
      }
      entries[name] = value
    }
    return .table(entries)
  }

  /// The array for integer keys that are all positive and dense enough (see ``LuaValue``).
  private static func array(from pairs: [(Int64, LuaValue)]) -> [LuaValue]? {
    var largest: Int64 = 0
    for (key, _) in pairs {
      guard key >= 1 else { return nil }
      largest = max(largest, key)
    }
    guard LuaValue.isDenseArray(largestKey: Int(clamping: largest), keyCount: pairs.count) else { return nil }
    var elements = [LuaValue](repeating: .nil, count: Int(largest))
    for (key, value) in pairs { elements[Int(key) - 1] = value }
    return elements
  }
}
