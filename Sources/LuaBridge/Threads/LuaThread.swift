import CLua
import CLuaShim

/// A Lua coroutine driven from Swift: resume it with values, learn whether it yielded or
/// finished, or catch its error.
///
/// ```swift
/// let body = try sandbox.load("local x = coroutine.yield(1); return x * 2", chunkName: "job.lua")
/// let job = try vm.newThread(body)
/// try job.resume()          // .yielded([1])
/// try job.resume(21)        // .finished([42])
/// ```
///
/// Swift functions can suspend the coroutine that calls them (``LuaReturn/yield(_:)``): that is how
/// asynchronous dependencies work. Lua calls `deps.fetch(n)`, the Swift function yields a request,
/// the host does the work and later calls ``resume(_:)`` with the result — which `fetch` returns in
/// Lua — or ``resume(throwing:)`` to raise an error at that call instead.
///
/// Each resume is one call for the instruction budget (``LuaVM/Limits``).
public final class LuaThread {
  /// Where the coroutine stands.
  public enum Status: Sendable, Hashable {
    /// Not started, or waiting after a yield.
    case suspended
    /// Running (it resumed something that is now calling back into Swift).
    case running
    /// Its function returned.
    case finished
    /// It raised an error; it cannot be resumed.
    case failed
    /// ``close()`` was called.
    case closed
  }

  /// What a resume led to.
  public enum Outcome: Sendable, Hashable {
    /// The coroutine yielded these values and waits for the next resume.
    case yielded([LuaValue])
    /// The coroutine's function returned these values.
    case finished([LuaValue])
  }

  /// The VM.
  public let vm: LuaVM
  let thread: OpaquePointer
  let id: Int32
  /// Where the coroutine stands.
  public private(set) var status: Status = .suspended
  /// Whether the last yield came from a Swift function (``LuaReturn/yield(_:)``) rather than from
  /// `coroutine.yield`; only then can ``resume(throwing:)`` raise at the yield point.
  public private(set) var isWaitingForHost = false

  init(vm: LuaVM, thread: OpaquePointer, id: Int32) {
    self.vm = vm
    self.thread = thread
    self.id = id
  }

  deinit {
    vm.unreference(id)
  }

  /// Resumes the coroutine; `arguments` are the function's arguments on the first resume, and the
  /// results of the pending `coroutine.yield` (or yielding Swift function) afterwards.
  ///
  /// - Throws: ``LuaError`` with the coroutine's error and its traceback (the thread is then
  ///   ``Status/failed``), ``LuaError/Kind/misuse`` if it is not suspended.
  @discardableResult
  public func resume<each Argument: LuaPushable>(_ arguments: repeat each Argument) throws(LuaError) -> Outcome {
    var writer = vm.makeWriter()
    defer { vm.recycle(&writer) }
    var position = 0
    for argument in repeat each arguments {
      position += 1
      do { try argument.write(to: &writer) } catch { throw LuaError(error.rooted(at: "argument #\(position)")) }
    }
    return try resume(with: &writer, raising: false)
  }

  /// Resumes the coroutine by raising `error` where a Swift function yielded, as if that function
  /// had failed: Lua code there can catch it with `pcall`. A string gets the caller's position.
  ///
  /// - Throws: ``LuaError/Kind/misuse`` unless ``isWaitingForHost``.
  @discardableResult
  public func resume(throwing error: some LuaPushable) throws(LuaError) -> Outcome {
    guard isWaitingForHost else {
      throw LuaError(kind: .misuse, message: "resume(throwing:) needs a coroutine suspended in a yielding Swift function")
    }
    var writer = vm.makeWriter()
    defer { vm.recycle(&writer) }
    do { try error.write(to: &writer) } catch { throw LuaError(error.rooted(at: "error")) }
    return try resume(with: &writer, raising: true)
  }

  private func resume(with writer: inout LuaWriter, raising: Bool) throws(LuaError) -> Outcome {
    guard status == .suspended else {
      throw LuaError(kind: .misuse, message: "cannot resume a coroutine that is \(status)")
    }
    let L = vm.state
    let nargs = try vm.push(&writer, on: L)
    var count: Int32 = 0
    status = .running
    isWaitingForHost = false
    let result = lunar_resume(L, thread, nargs, raising ? 1 : 0, &count)
    switch result {
    case LUA_YIELD:
      status = .suspended
      isWaitingForHost = vm.host.pointee.host_yielded != 0
      return .yielded(try takeValues(count, root: "yielded value"))
    case LUA_OK:
      status = .finished
      return .finished(try takeValues(count, root: "result"))
    default:
      status = .failed
      throw failure(status: result, hasObject: count > 0)
    }
  }

  /// Pops `count` values from the coroutine's stack as data.
  private func takeValues(_ count: Int32, root: String) throws(LuaError) -> [LuaValue] {
    let top = lua_gettop(thread)
    defer { lua_settop(thread, top - count) }
    var values: [LuaValue] = []
    for i in 0..<count {
      values.append(try vm.readValue(at: top - count + 1 + i, root: "\(root) #\(i + 1)", on: thread))
    }
    return values
  }

  private func failure(status: Int32, hasObject: Bool) -> LuaError {
    let L = vm.state
    lunar_locate_thread_error(thread)
    var traceback: String?
    if lunar_thread_traceback(L, thread) == LUA_OK, lua_type(L, -1) == LUA_TSTRING {
      traceback = StackReader.string(L, at: -1).lossyString
    }
    lunar_pop(L, 1)
    return vm.takeError(status: status, from: thread, hasObject: hasObject, traceback: traceback ?? "")
  }

  /// Closes the coroutine: pending to-be-closed variables are closed, and it cannot run again.
  /// Closing a finished or failed coroutine just frees its stack.
  public func close() {
    guard status != .closed && status != .running else { return }
    _ = lunar_closethread(vm.state, thread)
    lua_settop(thread, 0)
    status = .closed
    isWaitingForHost = false
  }
}

extension LuaVM {
  /// A new coroutine that runs `body` when first resumed.
  public func newThread(_ body: LuaFunction) throws(LuaError) -> LuaThread {
    guard ObjectIdentifier(body.vm) == ObjectIdentifier(self) else {
      throw LuaError(kind: .misuse, message: "the function belongs to another LuaVM")
    }
    var thread: OpaquePointer?
    var id: Int32 = 0
    let status = lunar_newthread(state, body.reference.id, &thread, &id)
    guard status == LUA_OK, let thread else { throw takeError(status: status, from: state) }
    return LuaThread(vm: self, thread: thread, id: id)
  }
}
