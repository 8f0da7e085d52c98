import CLua
import CLuaShim

/// The results of a call, read where they lie on the Lua stack, before they are popped.
///
/// ```swift
/// let total = try vm.call(reduce, on: state, with: action) { results in
///   if results.count == 0 { return 0 }
///   return results.integer(1) ?? 0           // no array, no LuaValue: nothing allocated
/// }
/// ```
///
/// Positions count from 1, as in Lua; a position past ``count`` reads as nil.
///
/// > Important: Use it only inside the closure it is passed to: the values it reads are popped
/// > once the closure returns, and a copy kept beyond would read whatever lies there next.
/// > (It is not `~Copyable` because the 6.3 optimizer crashes specializing such closures.)
public struct LuaResults {
  @usableFromInline let vm: LuaVM
  @usableFromInline let state: OpaquePointer
  @usableFromInline let base: Int32
  /// How many results the call returned.
  public let count: Int

  @usableFromInline
  init(vm: LuaVM, state: OpaquePointer, base: Int32, count: Int) {
    self.vm = vm
    self.state = state
    self.base = base
    self.count = count
  }

  @inlinable
  func index(_ position: Int) -> Int32? {
    position >= 1 && position <= count ? base + Int32(position) : nil
  }

  /// Whether result `position` is nil (or missing).
  @inlinable
  public func isNil(_ position: Int) -> Bool {
    guard let index = index(position) else { return true }
    return lua_type(state, index) == LUA_TNIL
  }

  /// Result `position` when it is an integer (a float, even integral, is not).
  @inlinable
  public func integer(_ position: Int) -> Int64? {
    guard let index = index(position), lua_isinteger(state, index) != 0 else { return nil }
    return lua_tointegerx(state, index, nil)
  }

  /// Result `position` when it is a boolean.
  @inlinable
  public func boolean(_ position: Int) -> Bool? {
    guard let index = index(position), lua_type(state, index) == LUA_TBOOLEAN else { return nil }
    return lua_toboolean(state, index) != 0
  }

  /// Result `position` when it is a string; `reusing` is returned instead of a new copy when it
  /// holds the same bytes (a key read on every call need not be allocated on every call).
  @inlinable
  public func string(_ position: Int, reusing candidate: LuaString? = nil) -> LuaString? {
    guard let index = index(position), lua_type(state, index) == LUA_TSTRING else { return nil }
    return string(at: index, reusing: candidate)
  }

  /// The string at stack index `index` (which must hold one), or `candidate` when it has the
  /// same bytes.
  @inlinable
  func string(at index: Int32, reusing candidate: LuaString?) -> LuaString? {
    var length = 0
    guard let chars = lua_tolstring(state, index, &length) else { return nil }
    let bytes = UnsafeRawBufferPointer(start: chars, count: length)
    if let candidate, candidate.bytes.elementsEqual(bytes) { return candidate }
    return LuaString(bytes: bytes)
  }

  /// Result `position` when it is nil, a boolean, a number or a string; `nil` for a table or a
  /// value that is not data.
  @inlinable
  public func scalar(_ position: Int) -> LuaValue? {
    guard let index = index(position) else { return .nil }
    switch lua_type(state, index) {
    case LUA_TNIL: return .nil
    case LUA_TBOOLEAN: return .boolean(lua_toboolean(state, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(state, index) != 0 { return .integer(lua_tointegerx(state, index, nil)) }
      return .number(lua_tonumberx(state, index, nil))
    case LUA_TSTRING: return string(position).map(LuaValue.string)
    default: return nil
    }
  }

  /// Result `position` when it is an array of strings and integers (a path of keys), read raw;
  /// `nil` for anything else, or for an array longer than `limit`. Strings equal to the element
  /// at the same place in `reusing` are that element, not a new copy.
  @inlinable
  public func keys(_ position: Int, reusing candidates: [LuaValue] = [], limit: Int = 64) -> [LuaValue]? {
    guard let index = index(position), lua_type(state, index) == LUA_TTABLE else { return nil }
    let count = Int(lua_rawlen(state, index))
    guard count <= limit, lua_checkstack(state, 1) != 0 else { return nil }
    var keys: [LuaValue] = []
    keys.reserveCapacity(count)
    for offset in 0..<count {
      defer { lua_settop(state, -2) }
      switch lua_rawgeti(state, index, lua_Integer(offset + 1)) {
      case LUA_TSTRING:
        var candidate: LuaString?
        if offset < candidates.count, case let .string(string) = candidates[offset] { candidate = string }
        guard let key = string(at: -1, reusing: candidate) else { return nil }
        keys.append(.string(key))
      case LUA_TNUMBER where lua_isinteger(state, -1) != 0:
        keys.append(.integer(lua_tointegerx(state, -1, nil)))
      default:
        return nil
      }
    }
    return keys
  }

  /// Result `position` as data (`.nil` past ``count``).
  ///
  /// - Throws: ``LuaError`` of kind ``LuaError/Kind/conversion`` when it is not data.
  public func value(_ position: Int) throws(LuaError) -> LuaValue {
    guard let index = index(position) else { return .nil }
    var reader = StackReader(state: state, depthLimit: Int(vm.host.pointee.data_depth))
    do { return try reader.read(at: index) } catch { throw LuaError(error.rooted(at: "result #\(position)")) }
  }

  /// All results as data, as ``LuaVM/call(_:_:)`` returns them.
  ///
  /// - Throws: ``LuaError`` of kind ``LuaError/Kind/conversion`` naming the result that is not data.
  public func values() throws(LuaError) -> [LuaValue] {
    var results: [LuaValue] = []
    results.reserveCapacity(count)
    var reader = StackReader(state: state, depthLimit: Int(vm.host.pointee.data_depth))
    for position in stride(from: 1, through: count, by: 1) {
      do {
        results.append(try reader.read(at: base + Int32(position)))
      } catch {
        throw LuaError(error.rooted(at: "result #\(position)"))
      }
    }
    return results
  }
}

extension LuaVM {
  /// The hot path, reading the results in place: `read` sees them on the stack, then they are
  /// popped. A caller that needs only a few scalars allocates nothing for them.
  ///
  /// ```swift
  /// let changed = try vm.call(reduce, on: state, with: action) { results in results.count > 0 }
  /// ```
  ///
  /// Same call, same errors as ``call(_:on:with:)``. A closure that throws says so with its type:
  /// `{ results throws(LuaError) in try results.values() }`.
  @inlinable
  public func call<Value: LuaPushable, R>(
    _ function: LuaFunction, on table: LuaTable, with value: Value,
    reading read: (LuaResults) throws(LuaError) -> R
  ) throws(LuaError) -> R {
    var writer = makeWriter()
    defer { recycle(&writer) }
    try writeHotCall(function, table, value, to: &writer)
    let L = state
    let base = lua_gettop(L)
    let count = try finishCall(&writer, results: lunar_multret())
    defer { lua_settop(L, base) }
    return try read(LuaResults(vm: self, state: L, base: base, count: Int(count)))
  }
}
