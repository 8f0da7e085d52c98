import CLua
import CLuaShim

/// The Swift side of a host function: its closure and name. Lua owns it (through the userdata
/// upvalue of the trampoline closure) and releases it from `__gc`.
final class HostFunctionBox {
  let name: String
  let body: (LuaArguments) throws -> LuaReturn

  init(name: String, body: @escaping (LuaArguments) throws -> LuaReturn) {
    self.name = name
    self.body = body
  }
}

extension LuaVM {
  /// A Lua function that runs `body` in Swift.
  ///
  /// ```swift
  /// let double = try vm.function(named: "double") { args in .value(try args.integer(1) * 2) }
  /// try deps.set("double", double)
  /// ```
  ///
  /// A thrown error is raised in Lua as a string: `counter.lua:7: bad argument #1 to 'double'
  /// (expected an integer, found a string)` for argument errors, the error's description (with the
  /// caller's position) otherwise; a ``LuaError`` thrown by a nested call is raised again as it
  /// was. Lua code can catch it with `pcall`. Return ``LuaReturn/yield(_:)`` to suspend the calling
  /// coroutine.
  ///
  /// How it stays safe: `body` runs inside `lunar_trampoline`, a C function. Swift never raises: it
  /// catches everything, pushes results or the error object through protected pushes, and returns a
  /// status; the trampoline then returns, yields (`lua_yieldk`) or raises (`lua_error`), with no
  /// Swift frame left to skip.
  ///
  /// > Important: Capture the VM weakly or not at all (use ``LuaArguments/vm``): the closure lives
  /// > inside the VM, so a strong capture makes a cycle that keeps both alive forever.
  public func function(named name: String, _ body: @escaping (LuaArguments) throws -> LuaReturn) throws(LuaError) -> LuaFunction {
    let box = Unmanaged.passRetained(HostFunctionBox(name: name, body: body))
    let status = lunar_pushhostfunction(state, box.toOpaque())
    guard status == LUA_OK else {
      box.release()  // NB: on failure Lua never took ownership
      throw takeError(status: status, from: state)
    }
    return LuaFunction(LuaRef(vm: self, id: try popReference(), type: .function))
  }

  /// A Lua function that is the C function `body` (without upvalues): for C code a module writes
  /// for its own Lua, where crossing into Swift would cost more than the work.
  ///
  /// ```swift
  /// let whereDefined = try vm.function(lunar_where_defined)
  /// ```
  ///
  /// `body` runs as any C function Lua calls: it may raise (`luaL_error`), never across Swift.
  public func function(_ body: lua_CFunction) throws(LuaError) -> LuaFunction {
    // NB: a light C function: pushing it allocates nothing; taking the reference is protected.
    lua_pushcclosure(state, body, 0)
    return LuaFunction(LuaRef(vm: self, id: try popReference(), type: .function))
  }

  /// Called by the trampoline (C) for every call of a host function.
  static func dispatch(_ L: OpaquePointer, _ context: UnsafeMutableRawPointer, _ count: UnsafeMutablePointer<Int32>) -> Int32 {
    let vm = LuaVM.owner(of: L)
    let box = Unmanaged<HostFunctionBox>.fromOpaque(context).takeUnretainedValue()
    let saved = vm.state
    vm.state = L
    defer { vm.state = saved }
    let arguments = LuaArguments(vm: vm, state: L, count: Int(lua_gettop(L)), functionName: box.name)
    let result: LuaReturn
    do {
      result = try box.body(arguments)
    } catch {
      return vm.raise(error, on: L)
    }
    var writer = vm.makeWriter()
    defer { vm.recycle(&writer) }
    for (offset, value) in result.values.enumerated() {
      do { try value.write(to: &writer) } catch {
        return vm.raise(LuaError(error.rooted(at: "result #\(offset + 1) of '\(box.name)'")), on: L)
      }
    }
    var pushed: Int32 = 0
    let status = lunar_push(L, writer.bytes.baseAddress, writer.count, &pushed)
    guard status == LUA_OK else {
      // NB: the error object (often Lua's preallocated memory message) is on top: raise it.
      return pushed > 0 ? Int32(LUNAR_HOST_ERROR) : vm.raiseMemoryError(on: L)
    }
    count.pointee = pushed
    return Int32(result.kind == .yield ? LUNAR_HOST_YIELD : LUNAR_HOST_RETURN)
  }

  /// Pushes the error object for `error` and returns the status telling the trampoline to raise it.
  private func raise(_ error: any Error, on L: OpaquePointer) -> Int32 {
    var writer = makeWriter()
    defer { recycle(&writer) }
    var status = Int32(LUNAR_HOST_ERROR_WHERE)
    if let error = error as? LuaError {
      if !error.addsPosition { status = Int32(LUNAR_HOST_ERROR) }
      if let value = error.value, !error.addsPosition, case .table = value {
        try? value.write(to: &writer)  // NB: re-raise structured error objects as they were
      } else {
        writer.write(error.message)
      }
    } else {
      writer.write(String(describing: error))
    }
    var pushed: Int32 = 0
    let pushStatus = lunar_push(L, writer.bytes.baseAddress, writer.count, &pushed)
    if pushStatus != LUA_OK && pushed == 0 { return raiseMemoryError(on: L) }
    return status  // NB: after a failed push, the object on top is the memory error: raise that
  }

  /// When not even an error object could be pushed: the stack is full. `lua_checkstack` failed, so
  /// raise with what is there, which the trampoline does with a nil object.
  private func raiseMemoryError(on L: OpaquePointer) -> Int32 {
    lua_pushnil(L)  // NB: LUA_MINSTACK guarantees this slot to a C function; pushing nil allocates nothing
    return Int32(LUNAR_HOST_ERROR)
  }
}
