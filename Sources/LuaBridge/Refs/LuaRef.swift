import CLua
import CLuaShim

/// Lua's type of a value, as `type()` names it (plus light userdata).
public enum LuaType: String, Sendable, Hashable {
  case `nil`, boolean, number, string, table, function, userdata, thread
  case lightUserdata = "light userdata"

  init(_ code: Int32) {
    switch code {
    case LUA_TBOOLEAN: self = .boolean
    case LUA_TNUMBER: self = .number
    case LUA_TSTRING: self = .string
    case LUA_TTABLE: self = .table
    case LUA_TFUNCTION: self = .function
    case LUA_TUSERDATA: self = .userdata
    case LUA_TTHREAD: self = .thread
    case LUA_TLIGHTUSERDATA: self = .lightUserdata
    default: self = .nil
    }
  }
}

/// A Lua value held by Swift through the registry, so it stays alive and is reached without a
/// global lookup. Any type: tables, functions, userdata.
///
/// ```swift
/// let state = try vm.call(makeState, returning: LuaRef.self)
/// try vm.call(reduce, state, action)      // pushes the same table, no copy
/// ```
///
/// The reference is released when the last Swift copy goes away.
///
/// > Important: A reference keeps its ``vm`` alive, and belongs to it: passing it to another VM is
/// > a ``LuaError/Kind/misuse`` error. Use it on the VM's isolation domain only.
public final class LuaRef: LuaPushable, LuaReadable {
  /// The VM that holds the value.
  public let vm: LuaVM
  /// The registry index.
  @usableFromInline let id: Int32
  /// The Lua type of the value.
  public let type: LuaType

  /// The registry index, for the VM's package-level hot paths (valid while this reference lives).
  package var registryID: Int32 { id }

  init(vm: LuaVM, id: Int32, type: LuaType) {
    self.vm = vm
    self.id = id
    self.type = type
  }

  deinit {
    vm.unreference(id)
  }

  /// The value as data.
  ///
  /// - Throws: ``LuaError/Kind/conversion`` if it holds functions, cycles, ….
  public func value() throws(LuaError) -> LuaValue {
    let L = vm.state
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(id))
    defer { lunar_pop(L, 1) }
    return try vm.readValue(at: -1, root: type == .table ? "table" : "value")
  }

  /// Decodes the value into `T` with ``LuaDecoder``.
  public func decode<T: Decodable>(_ type: T.Type, decoder: LuaDecoder = LuaDecoder()) throws(LuaError) -> T {
    let value = try self.value()
    do { return try decoder.decode(type, from: value) } catch { throw LuaError(error) }
  }

  /// The value as a table reference, or `nil` if it is not a table.
  public var table: LuaTable? { type == .table ? LuaTable(self) : nil }

  /// The value as a function reference, or `nil` if it is not a function.
  public var function: LuaFunction? { type == .function ? LuaFunction(self) : nil }

  public func write(to writer: inout LuaWriter) throws(LuaConversionError) {
    try writer.write(self)
  }

  public static func read(from slot: LuaSlot) throws(LuaError) -> LuaRef {
    try slot.reference()
  }
}
