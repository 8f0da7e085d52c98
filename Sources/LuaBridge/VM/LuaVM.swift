import CLua
import CLuaShim

/// One Lua 5.4 virtual machine: a `lua_State` with only safe libraries, resource limits, and
/// conversions to and from Swift.
///
/// ```swift
/// let vm = try LuaVM()
/// let add = try vm.load("return function(a, b) return a + b end", chunkName: "add.lua")
/// let f = try vm.call(add, returning: LuaFunction.self)
/// try f.call(2, 3)          // [.integer(5)]
/// ```
///
/// Scripts from users run in a ``LuaSandbox`` (its own globals, `require` inside a folder); the
/// VM's own globals are for trusted host code.
///
/// **Safety.** Lua raises errors with `longjmp`, which would skip the cleanup of Swift frames. So
/// every entry into Lua goes through a protected C helper (`lua_pcall`), values are pushed by
/// protected programs (see ``LuaWriter``), reads use only API that cannot raise, and Swift
/// functions called from Lua report failures by status to a C trampoline, which alone raises.
///
/// > Important: A `LuaVM` is not thread-safe and not `Sendable`: create it and use it in one
/// > isolation domain (for example `@MainActor`), together with every ``LuaRef``, ``LuaSandbox`` and
/// > ``LuaThread`` made from it. Swift functions you register run synchronously inside calls on
/// > that same domain. A closure registered with ``function(named:_:)`` must not capture the VM
/// > strongly (use ``LuaArguments/vm``), or the VM and the closure keep each other alive.
public final class LuaVM {
  @usableFromInline let host: UnsafeMutablePointer<lunar_host>
  let mainState: OpaquePointer
  var hostModules: [String: HostModule] = [:]
  var sandboxFactory: Int32?

  /// The VM's limits; changes apply to the next call.
  public var limits: Limits {
    didSet { applyLimits() }
  }

  /// The running thread: the main one, or the coroutine whose host function is running now.
  /// NB: kept in the C host struct, so the hot path reads it without exclusivity checks.
  @usableFromInline var state: OpaquePointer {
    get { host.pointee.current }
    set { host.pointee.current = newValue }
  }

  /// Receives the text of `print(...)` from sandboxed scripts (arguments joined by tabs). By
  /// default it writes to standard output.
  public var printHandler: (String) -> Void = { print($0) }

  /// A VM with the base, string, table, math, utf8 and coroutine libraries (no io, os, debug or
  /// package; `dofile` and `loadfile` removed).
  ///
  /// - Throws: ``LuaError`` of kind ``LuaError/Kind/memory`` if the state cannot be set up within
  ///   `limits.memoryBytes`.
  public init(limits: Limits = .default) throws(LuaError) {
    let host = UnsafeMutablePointer<lunar_host>.allocate(capacity: 1)
    host.initialize(to: lunar_host())
    host.pointee.bytes_limit = limits.memoryBytes.map { size_t(max($0, 0)) } ?? 0
    host.pointee.call = { L, context, count in LuaVM.dispatch(L!, context!, count!) }
    host.pointee.release = { context in Unmanaged<HostFunctionBox>.fromOpaque(context!).release() }
    guard let L = lunar_newstate(host) else {
      lunar_pool_release(host)
      host.deallocate()
      throw LuaError(kind: .memory, message: "not enough memory to create a Lua state")
    }
    self.host = host
    self.mainState = L
    self.limits = limits
    host.pointee.current = L
    host.pointee.data_depth = Int32(clamping: limits.dataDepth)
    host.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    let status = lunar_openlibs(L)
    guard status == LUA_OK else { throw takeError(status: status, from: L) }
    lunar_install_handler(L)
    applyLimits()
  }

  deinit {
    // NB: closing runs the __gc of host functions, which releases their Swift closures.
    lua_close(mainState)
    lunar_pool_release(host)
    lunar_buffer_free(host.pointee.program)
    host.deinitialize(count: 1)
    host.deallocate()
  }

  private func applyLimits() {
    host.pointee.bytes_limit = limits.memoryBytes.map { size_t(max($0, 1)) } ?? 0
    host.pointee.data_depth = Int32(clamping: limits.dataDepth)
    lunar_set_limits(
      mainState, Int64(limits.instructionsPerCall ?? 0), limits.timePerCall.map(Self.nanoseconds) ?? 0,
      limits.cpuTimePerCall.map(Self.nanoseconds) ?? 0)
  }

  /// A duration in whole nanoseconds, clamped to what a limit can hold (at least one).
  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 1 }
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return Int64.max / 2 }
    return max(1, min(Int64.max / 2, whole &+ attoseconds / 1_000_000_000))
  }

  /// Bytes the VM has allocated now, as counted by its allocator: what Lua holds, which
  /// ``Limits/memoryBytes`` caps.
  ///
  /// > Note: Small blocks Lua frees (128 bytes or less) stay with the VM for reuse until it is
  /// > deinitialized, so the process can hold more than this after a burst of garbage.
  public var memoryInUse: Int { Int(host.pointee.bytes_in_use) }

  /// Lua's own count of its memory in use, in bytes (`collectgarbage("count") * 1024`).
  public var garbageCollectorCount: Int {
    Int(lunar_gc_count(mainState))
  }

  /// Runs a full garbage collection (finalizers included; their errors are ignored, as Lua 5.4
  /// turns them into warnings).
  public func collectGarbage() {
    lunar_gc_collect(mainState)
  }

  static func owner(of L: OpaquePointer) -> LuaVM {
    Unmanaged<LuaVM>.fromOpaque(lunar_host_of(L).pointee.owner).takeUnretainedValue()
  }
}

// MARK: - Programs

extension LuaVM {
  /// A writer on the VM's reusable buffer; give it back with ``recycle(_:)``. Nested use (a host
  /// function pushing while a call is in flight) gets a buffer of its own.
  @inlinable
  func makeWriter() -> LuaWriter {
    let owner = ObjectIdentifier(self)
    let depth = Int(host.pointee.data_depth)
    if host.pointee.program_busy == 0, let buffer = host.pointee.program {
      host.pointee.program_busy = 1
      return LuaWriter(base: UnsafeMutableRawPointer(buffer), capacity: host.pointee.program_capacity, owner: owner, host: host, depthLimit: depth)
    }
    return makeFreshWriter(owner: owner, depth: depth)
  }

  @usableFromInline
  func makeFreshWriter(owner: ObjectIdentifier, depth: Int) -> LuaWriter {
    // NB: the first writer's buffer becomes the VM's reusable one.
    let first = host.pointee.program == nil && host.pointee.program_busy == 0
    if first { host.pointee.program_busy = 1 }
    return LuaWriter(base: lunar_buffer_realloc(nil, 256), capacity: 256, owner: owner, host: first ? host : nil, depthLimit: depth)
  }

  @inlinable
  func recycle(_ writer: inout LuaWriter) {
    if let host = writer.host {
      host.pointee.program = writer.base.assumingMemoryBound(to: UInt8.self)
      host.pointee.program_capacity = writer.capacity
      host.pointee.program_busy = 0
    } else {
      lunar_buffer_free(writer.base)
    }
  }

  /// Pushes the values of `writer` on `L`; returns how many.
  func push(_ writer: inout LuaWriter, on L: OpaquePointer) throws(LuaError) -> Int32 {
    var count: Int32 = 0
    let status = lunar_push(L, writer.bytes.baseAddress, writer.count, &count)
    guard status == LUA_OK else { throw takeError(status: status, from: L, hasObject: count > 0) }
    return count
  }

  /// Pushes one value on the running thread.
  func push(_ value: some LuaPushable) throws(LuaError) {
    var writer = makeWriter()
    defer { recycle(&writer) }
    do { try value.write(to: &writer) } catch { throw LuaError(error.rooted(at: "value")) }
    let count = try push(&writer, on: state)
    assert(count == 1)
  }

  /// Anchors the value on top of the running thread in the registry (popping it).
  func popReference() throws(LuaError) -> Int32 {
    var id: Int32 = 0
    let status = lunar_ref(state, &id)
    guard status == LUA_OK else { throw takeError(status: status, from: state) }
    return id
  }

  /// Releases a registry reference. `luaL_unref` writes only to slots that exist, so it does not
  /// allocate and cannot raise.
  func unreference(_ id: Int32) {
    guard id != LUA_REFNIL && id != LUA_NOREF else { return }
    luaL_unref(state, lunar_registryindex(), id)
  }

  /// Reads the value at `index` of the running thread.
  func readValue(at index: Int32, root: String, on L: OpaquePointer? = nil) throws(LuaError) -> LuaValue {
    let L = L ?? state
    var reader = StackReader(state: L, depthLimit: Int(host.pointee.data_depth))
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    do { return try reader.read(at: lua_absindex(L, index)) } catch { throw LuaError(error.rooted(at: root)) }
  }
}
