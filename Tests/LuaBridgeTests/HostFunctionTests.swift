import Glibc
import LuaBridge
import Testing

/// Counts live instances, to prove Swift objects created in failing host calls are released.
final class LiveCounter: @unchecked Sendable {
  static let shared = LiveCounter()
  private let lock = NSLockLike()
  private var live = 0
  func increment() { lock.withLock { live += 1 } }
  func decrement() { lock.withLock { live -= 1 } }
  var count: Int { lock.withLock { live } }
}

struct NSLockLike: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
    let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(m, nil)
    return m
  }()
  func withLock<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }
}

/// An error that is also a tracked object: if a longjmp skipped its release, the count would stay up.
final class TrackedFailure: Error, CustomStringConvertible, @unchecked Sendable {
  init() { LiveCounter.shared.increment() }
  deinit { LiveCounter.shared.decrement() }
  var description: String { "tracked failure" }
}

@Suite struct HostFunctionTests {
  let vm: LuaVM

  init() throws { vm = try makeVM(instructions: nil) }

  func lua(_ source: String) throws -> LuaFunction {
    try vm.load(source, chunkName: "host.lua")
  }

  @Test func swiftFunctionIsCallableFromLua() throws {
    let double = try vm.function(named: "double") { args in .value(try args.integer(1) * 2) }
    let chunk = try lua("local f = ...; return f(21)")
    #expect(try chunk.call(double) == [42])
  }

  @Test func swiftFunctionReturnsSeveralValues() throws {
    let pair = try vm.function(named: "pair") { _ in .values(1, "two", LuaValue.nil, true) }
    let chunk = try lua("local f = ...; return select('#', f()), f()")
    #expect(try chunk.call(pair) == [4, 1, "two", nil, true])
  }

  @Test func badArgumentReadsLikeLuasOwnWithCallerPosition() throws {
    let double = try vm.function(named: "double") { args in .value(try args.integer(1) * 2) }
    let chunk = try lua("local f = ...\nreturn f('x')")
    let error = try #require(throws: LuaError.self) { try chunk.call(double) }
    #expect(error.message == "host.lua:2: bad argument #1 to 'double' (expected an integer, found a string)")
    #expect(error.line == 2)
  }

  @Test func thrownSwiftErrorIsCatchableByPcall() throws {
    let failing = try vm.function(named: "fail") { _ in throw TrackedFailure() }
    let chunk = try lua("local f = ...; local ok, e = pcall(function() return f() end); return ok, e")
    #expect(try chunk.call(failing) == [false, "host.lua:1: tracked failure"])
  }

  @Test func structuredLuaErrorThrownFromSwiftKeepsItsTable() throws {
    let failing = try vm.function(named: "fail") { _ in
      throw LuaError(kind: .runtime, message: "not found", value: ["code": 404])
    }
    let chunk = try lua("local f = ...; local ok, e = pcall(f); return e.code")
    #expect(try chunk.call(failing) == [404])
  }

  @Test func swiftFunctionCanCallBackIntoLua() throws {
    let apply = try vm.function(named: "apply") { args in
      let f = try args.function(1)
      return .value(try f.call(try args.value(2), returning: LuaValue.self))
    }
    let chunk = try lua("local apply = ...; return apply(function(x) return x + 1 end, 41)")
    #expect(try chunk.call(apply) == [42])
  }

  @Test func argumentsDecodeIntoCodableTypes() throws {
    struct Point: Codable, Equatable { var x: Int; var y: Int }
    nonisolated(unsafe) var seen: Point?
    let take = try vm.function(named: "take") { args in
      seen = try args.decode(Point.self, at: 1)
      return .none
    }
    try lua("local f = ...; f({x = 1, y = 2})").call(take)
    #expect(seen == Point(x: 1, y: 2))
  }

  @Test func aMillionFailingCallsLeakNothingAndLeaveTheVMUsable() throws {
    // NB: one long call on purpose; a debug build needs more than the default CPU time.
    vm.limits.timePerCall = nil
    vm.limits.cpuTimePerCall = nil
    // NB: ThreadSanitizer keeps a frame on its per-thread shadow stack for each Lua error raised
    //     from instrumented C (the longjmp skips the frame's exit, and the setjmp was made in liblua,
    //     which it does not instrument): a few hundred thousand overflow it and crash the process.
    //     Plain C reproduces it (a C function calling lua_error under pcall, 300,000 times).
    let calls = ThreadSanitizer.isActive ? 20_000 : 1_000_000
    let failing = try vm.function(named: "fail") { _ in throw TrackedFailure() }
    let loop = try lua("""
      local f, n = ...
      local failures = 0
      for i = 1, n do
        local ok = pcall(f, i)
        if not ok then failures = failures + 1 end
      end
      return failures
      """)
    // Warm up, then measure Lua's memory and the Swift objects made by the failing calls.
    try loop.call(failing, 10_000)
    vm.collectGarbage()
    let luaBefore = vm.garbageCollectorCount

    #expect(try loop.call(failing, calls) == [.integer(Int64(calls))])

    vm.collectGarbage()
    #expect(LiveCounter.shared.count == 0)
    #expect(vm.garbageCollectorCount <= luaBefore + 16 * 1024)
    // NB: process-wide figures (RSS, malloc statistics) are not asserted: suites run in parallel
    // and allocate meanwhile. The Swift objects of each failing call are counted instead.
    #expect(try lua("return 1 + 1").call() == [2])
  }

  @Test func closureIsReleasedWhenTheFunctionIsCollected() throws {
    weak var weakProbe: ProbeObject?
    do {
      let probe = ProbeObject()
      weakProbe = probe
      _ = try vm.function(named: "probe") { _ in _ = probe; return .none }
    }
    vm.collectGarbage()
    #expect(weakProbe == nil)
  }

  @Test func closuresAreReleasedWhenTheVMCloses() throws {
    weak var weakProbe: ProbeObject?
    do {
      let vm = try makeVM()
      let probe = ProbeObject()
      weakProbe = probe
      let f = try vm.function(named: "probe") { _ in _ = probe; return .none }
      try vm.globals().set("probe", f)
    }
    #expect(weakProbe == nil)
  }
}

final class ProbeObject {}
