import CLua
import CLuaShim

/// A C extension: another target's own C code (a module's hot path, such as LuaFeatures' reducer
/// transaction) entering Lua through the same protected, budgeted door as every call of the
/// bridge (`lunar_call_c`, or an entry of the extension's own built on it).
///
/// ```swift
/// let count = try vm.callExtension(passing: action) { host, L, program, length, count in
///   my_extension_entry(host, L, context, program, length, &count)
/// } reading: { results throws(LuaError) in results.count }
/// ```
///
/// Not for scripts or apps: the extension's C code must follow the bridge's rules (every entry
/// protected, one error object on failure), which the compiler cannot check.
extension LuaVM {
  /// Calls an extension's entry with `value` written as a push program of one value, then reads
  /// the results it left in place; they are popped once `read` returns.
  ///
  /// - Parameters:
  ///   - entry: Calls the extension's protected entry with the VM's host state, the running
  ///     thread and the program; returns its status and sets `count` to the results (or error
  ///     objects) it left.
  ///   - read: Reads the results (see ``LuaResults``).
  /// - Throws: The entry's failure as a ``LuaError``, as ``call(_:_:)`` throws it.
  @inlinable
  package func callExtension<R>(
    passing value: LuaValue,
    _ entry: (UnsafeMutablePointer<lunar_host>, OpaquePointer, UnsafePointer<UInt8>, Int, inout Int32) -> Int32,
    reading read: (LuaResults) throws(LuaError) -> R
  ) throws(LuaError) -> R {
    var writer = makeWriter()
    defer { recycle(&writer) }
    do { try value.write(to: &writer) } catch { throw Self.argumentError(error, position: 1) }
    let L = state
    let top = lua_gettop(L)
    var count: Int32 = 0
    let status = entry(host, L, writer.base.assumingMemoryBound(to: UInt8.self), writer.count, &count)
    guard status == LUA_OK else { throw callError(status: status, on: L, hasObject: count > 0) }
    defer { lua_settop(L, top) }
    return try read(LuaResults(vm: self, state: L, base: top, count: Int(count)))
  }

  /// Runs an extension's entry that takes no value (a setup, an undo): `entry` gets the VM's host
  /// state and the running thread and returns a status, leaving nothing on success and one error
  /// object on failure.
  package func callExtension(_ entry: (UnsafeMutablePointer<lunar_host>, OpaquePointer) -> Int32) throws(LuaError) {
    let L = state
    let status = entry(host, L)
    guard status == LUA_OK else { throw takeError(status: status, from: L) }
  }

  /// Runs an extension's entry that pushes one table (its library, say), and anchors the table.
  package func extensionTable(_ entry: (OpaquePointer) -> Int32) throws(LuaError) -> LuaTable {
    let status = entry(state)
    guard status == LUA_OK else { throw takeError(status: status, from: state) }
    return LuaTable(LuaRef(vm: self, id: try popReference(), type: .table))
  }

  /// The running thread, for an extension's entries that cannot raise (a commit that only clears).
  package var extensionThread: OpaquePointer { state }
}
