import CLua
import CLuaShim

extension LuaVM {
  /// The hot path for reducers: calls `function(table, value)` with the function and the table held
  /// by reference, and returns all results as data.
  ///
  /// ```swift
  /// try vm.call(reduce, on: state, with: action)        // state: LuaTable, action: LuaValue
  /// ```
  ///
  /// Same behaviour as ``call(_:_:)``; it exists because it is generic over one value only, so it is
  /// specialized in your module and costs little more than the bare `lua_pcall` (the variadic
  /// ``call(_:_:)`` goes through runtime generic metadata on every call). `lunar bench bridge`
  /// measures it against the bare C API.
  @inlinable @discardableResult
  public func call<Value: LuaPushable>(
    _ function: LuaFunction, on table: LuaTable, with value: Value
  ) throws(LuaError) -> [LuaValue] {
    var writer = makeWriter()
    defer { recycle(&writer) }
    try writeHotCall(function, table, value, to: &writer)
    return try finishCall(&writer)
  }

  /// The hot path, reading the first result as `R` (for example a ``LuaRef`` to an effect
  /// description that holds functions).
  @inlinable
  public func call<Value: LuaPushable, R: LuaReadable>(
    _ function: LuaFunction, on table: LuaTable, with value: Value, returning: R.Type
  ) throws(LuaError) -> R {
    var writer = makeWriter()
    defer { recycle(&writer) }
    try writeHotCall(function, table, value, to: &writer)
    let L = state
    let base = lua_gettop(L)
    _ = try finishCall(&writer, results: 1)
    defer { lua_settop(L, base) }
    return try R.read(from: LuaSlot(vm: self, state: L, index: base + 1, root: "result #1"))
  }

  @inlinable
  func writeHotCall<Value: LuaPushable>(
    _ function: LuaFunction, _ table: LuaTable, _ value: Value, to writer: inout LuaWriter
  ) throws(LuaError) {
    guard ObjectIdentifier(function.reference.vm) == writer.owner else { throw Self.foreign("function") }
    guard ObjectIdentifier(table.reference.vm) == writer.owner else { throw Self.foreign("table") }
    writer.writeRef(function.reference.id)
    writer.writeRef(table.reference.id)
    do { try value.write(to: &writer) } catch { throw Self.argumentError(error, position: 2) }
  }

  /// The hot path with an integer: `function(table, value)` with nothing to encode at all.
  ///
  /// ```swift
  /// try vm.call(increment, on: counter, with: 1)
  /// ```
  @inlinable @discardableResult
  public func call(_ function: LuaFunction, on table: LuaTable, with value: Int) throws(LuaError) -> [LuaValue] {
    guard ObjectIdentifier(function.reference.vm) == ObjectIdentifier(self) else { throw Self.foreign("function") }
    guard ObjectIdentifier(table.reference.vm) == ObjectIdentifier(self) else { throw Self.foreign("table") }
    let L = state
    var count: Int32 = 0
    let status = lunar_call_refs_integer(
      host, L, function.reference.id, table.reference.id, Int64(value), lunar_multret(), &count)
    guard status == LUA_OK else { throw callError(status: status, on: L, hasObject: count > 0) }
    if count == 0 { return [] }
    return try takeResults(count)
  }
}
