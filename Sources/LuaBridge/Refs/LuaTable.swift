import CLua
import CLuaShim

/// A Lua table held by reference: read and write its fields without copying the whole table.
///
/// ```swift
/// let state = try vm.newTable()
/// try state.set("count", 0)
/// try vm.call(increment, state)
/// try state.get("count")                     // .integer(1)
/// let feature = try state.get("child", as: LuaTable.self)
/// ```
///
/// Access is raw (`rawget`/`rawset`): metatables are not consulted and no Lua code runs, so field
/// access never spends instructions and never fails except for memory or conversion.
public struct LuaTable: LuaPushable, LuaReadable {
  /// The underlying reference.
  public let reference: LuaRef

  init(_ reference: LuaRef) {
    self.reference = reference
  }

  /// The VM the table belongs to.
  public var vm: LuaVM { reference.vm }

  /// The value of field `key` as data (`.nil` when absent).
  public func get(_ key: some LuaPushable) throws(LuaError) -> LuaValue {
    try get(key, as: LuaValue.self)
  }

  /// The value of field `key` read as `R` (a reference, a number, …).
  public func get<R: LuaReadable>(_ key: some LuaPushable, as type: R.Type) throws(LuaError) -> R {
    let L = vm.state
    var writer = vm.makeWriter()
    defer { vm.recycle(&writer) }
    try writer.write(reference, root: "table")
    do { try key.write(to: &writer) } catch { throw LuaError(error.rooted(at: "key")) }
    let status = lunar_rawget(L, writer.bytes.baseAddress, writer.count)
    guard status == LUA_OK else { throw vm.takeError(status: status, from: L) }
    defer { lunar_pop(L, 1) }
    return try R.read(from: LuaSlot(vm: vm, state: L, index: lua_gettop(L), root: "table[\(key)]"))
  }

  /// Sets field `key` to `value` (nil removes it).
  public func set(_ key: some LuaPushable, _ value: some LuaPushable) throws(LuaError) {
    let L = vm.state
    var writer = vm.makeWriter()
    defer { vm.recycle(&writer) }
    try writer.write(reference, root: "table")
    do { try key.write(to: &writer) } catch { throw LuaError(error.rooted(at: "key")) }
    do { try value.write(to: &writer) } catch { throw LuaError(error.rooted(at: "value")) }
    let status = lunar_rawset(L, writer.bytes.baseAddress, writer.count)
    guard status == LUA_OK else { throw vm.takeError(status: status, from: L) }
  }

  /// The whole table as data.
  public func value() throws(LuaError) -> LuaValue { try reference.value() }

  /// The whole table decoded into `T` with ``LuaDecoder``.
  public func decode<T: Decodable>(_ type: T.Type, decoder: LuaDecoder = LuaDecoder()) throws(LuaError) -> T {
    try reference.decode(type, decoder: decoder)
  }

  /// The length of the table's sequence part (Lua's raw `#`).
  public var count: Int {
    let L = vm.state
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(reference.id))
    defer { lunar_pop(L, 1) }
    return Int(lua_rawlen(L, -1))
  }

  public func write(to writer: inout LuaWriter) throws(LuaConversionError) {
    try writer.write(reference)
  }

  public static func read(from slot: LuaSlot) throws(LuaError) -> LuaTable {
    guard slot.type == .table else { throw slot.mismatch(expected: "a table") }
    return LuaTable(try slot.reference())
  }
}

extension LuaVM {
  /// A new empty table, held by reference.
  public func newTable() throws(LuaError) -> LuaTable {
    let status = lunar_newtable(state)
    guard status == LUA_OK else { throw takeError(status: status, from: state) }
    return LuaTable(LuaRef(vm: self, id: try popReference(), type: .table))
  }

  /// A reference to `value` pushed into Lua (a table for tables, and so on).
  ///
  /// ```swift
  /// let state = try vm.reference(LuaEncoded(AppState()))
  /// ```
  public func reference(_ value: some LuaPushable) throws(LuaError) -> LuaRef {
    try push(value)
    let type = LuaType(lua_type(state, -1))
    return LuaRef(vm: self, id: try popReference(), type: type)
  }

  /// The VM's global table (trusted code's `_G`, not a sandbox's).
  public func globals() throws(LuaError) -> LuaTable {
    lua_rawgeti(state, lunar_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
    return LuaTable(LuaRef(vm: self, id: try popReference(), type: .table))
  }
}
