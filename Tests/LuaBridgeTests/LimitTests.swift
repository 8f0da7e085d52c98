import Foundation
import LuaBridge
import Testing

@Suite struct LimitTests {
  @Test func instructionBudgetStopsALoopWithATypedError() throws {
    let vm = try makeVM(instructions: 100_000)
    let loop = try vm.load("while true do end", chunkName: "loop.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(loop) }
    #expect(error.kind == .instructionLimit)
    #expect(error.line == 1)
  }

  @Test func budgetIsPerCallSoTheNextCallRuns() throws {
    let vm = try makeVM(instructions: 100_000)
    let work = try vm.load("local n = ... for i = 1, n do end return n", chunkName: "work.lua")
    #expect(throws: LuaError.self) { try vm.call(work, 1_000_000) }
    for _ in 0..<5 { #expect(try vm.call(work, 10_000) == [10_000]) }
  }

  @Test func budgetCoversCoroutinesCreatedByTheScript() throws {
    let vm = try makeVM(instructions: 200_000)
    let spread = try vm.load("""
      while true do
        local co = coroutine.wrap(function() for i = 1, 50 do end end)
        co()
      end
      """, chunkName: "spread.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(spread) }
    #expect(error.kind == .instructionLimit)
  }

  @Test func nestedCallsShareTheOuterBudget() throws {
    let vm = try makeVM(instructions: 100_000)
    let spin = try vm.load("return function() for i = 1, 30000 do end end", chunkName: "spin.lua").call(returning: LuaFunction.self)
    let callSpin = try vm.function(named: "callSpin") { args in
      try args.function(1).call()
      return .none
    }
    let outer = try vm.load("local callSpin, spin = ... for i = 1, 10 do callSpin(spin) end", chunkName: "outer.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(outer, callSpin, spin) }
    #expect(error.kind == .instructionLimit)
  }

  @Test func liftingTheBudgetLetsLongWorkFinish() throws {
    let vm = try makeVM(instructions: 1_000)
    vm.limits.instructionsPerCall = nil
    let work = try vm.load("for i = 1, 100000 do end return 'done'", chunkName: "work.lua")
    #expect(try vm.call(work) == ["done"])
  }

  @Test func memoryCeilingStopsAllocationWithATypedError() throws {
    let vm = try makeVM(memory: 8 << 20)
    let bomb = try vm.load("local t = {} for i = 1, 1e8 do t[i] = {i} end", chunkName: "bomb.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(bomb) }
    #expect(error.kind == .memory)
    vm.collectGarbage()
    #expect(vm.memoryInUse < 8 << 20)
    #expect(try vm.call(vm.load("return #string.rep('x', 1000)", chunkName: "ok.lua")) == [1000])
  }

  @Test func pushingPastTheMemoryCeilingIsAMemoryError() throws {
    let vm = try makeVM(memory: 4 << 20)
    let big = LuaValue.string(LuaString(bytes: [UInt8](repeating: 65, count: 8 << 20)))
    let error = try #require(throws: LuaError.self) { try vm.reference(big) }
    #expect(error.kind == .memory)
    #expect(try vm.reference(LuaValue.text("small")).value() == "small")
  }

  @Test func stackOverflowIsTypedAndRecoverable() throws {
    let vm = try makeVM(instructions: nil, memory: nil)
    let dive = try vm.load("local function f() return 1 + f() end return f()", chunkName: "dive.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(dive) }
    #expect(error.kind == .stackOverflow)
    #expect(try vm.call(vm.load("return 1", chunkName: "ok.lua")) == [1])
  }

  @Test func memoryInUseIsCountedByTheAllocator() throws {
    let vm = try makeVM()
    let before = vm.memoryInUse
    let keep = try vm.reference(LuaValue.string(LuaString(bytes: [UInt8](repeating: 1, count: 1 << 20))))
    #expect(vm.memoryInUse >= before + (1 << 20) - 4096)  // NB: a collection step may free a little meanwhile
    #expect(vm.garbageCollectorCount >= 1 << 20)
    _ = keep
  }
}

/// The wall-clock limit of a call: it stops what the instruction budget cannot see, and a script
/// cannot catch its way past it.
@Suite struct TimeLimitTests {
  func makeVM(seconds: Double = 0.2, instructions: Int? = nil) throws -> LuaVM {
    try LuaVM(limits: .init(instructionsPerCall: instructions, memoryBytes: 64 << 20, timePerCall: .milliseconds(Int(seconds * 1000))))
  }

  @Test func aLoopRunsOutOfTimeWithATypedErrorAtItsLine() throws {
    let vm = try makeVM()
    let loop = try vm.load("local n = 0\nwhile true do n = n + 1 end", chunkName: "loop.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(loop) }
    #expect(error.kind == .timeLimit)
    #expect(error.message == "loop.lua:2: time limit exceeded (0.2 s per call)")
  }

  @Test func theLimitIsPerCallSoTheNextCallRuns() throws {
    let vm = try makeVM()
    let loop = try vm.load("while true do end", chunkName: "loop.lua")
    #expect(throws: LuaError.self) { try vm.call(loop) }
    let work = try vm.load("local s = 0 for i = 1, 1000 do s = s + i end return s", chunkName: "work.lua")
    #expect(try vm.call(work) == [500_500])
  }

  @Test func aMessageHandlerThatLoopsCannotOutliveTheBudget() throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: 1_000_000, memoryBytes: 64 << 20, timePerCall: nil))
    let script = try vm.load("""
      local function spin() while true do end end
      xpcall(spin, spin)
      return "unreachable"
      """, chunkName: "handler.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(script) }
    #expect(error.kind == .instructionLimit)
    // NB: xpcall returns the error, and the next instruction of the script raises it again.
    #expect(error.line == 3)
  }

  @Test func aMessageHandlerThatLoopsCannotOutliveTheTimeLimit() throws {
    let vm = try makeVM()
    let script = try vm.load("""
      local function spin() while true do end end
      while true do xpcall(spin, spin) end
      """, chunkName: "handler.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(script) }
    #expect(error.kind == .timeLimit)
  }

  @Test func aHandlerForAScriptsOwnErrorStillRuns() throws {
    let vm = try makeVM()
    let script = try vm.load("""
      return xpcall(function() error("mine", 0) end, function(e) return "handled " .. e end)
      """, chunkName: "handler.lua")
    #expect(try vm.call(script) == [false, "handled mine"])
  }

  @Test func xpcallPassesArgumentsAndResultsThrough() throws {
    let vm = try makeVM()
    let script = try vm.load("""
      return xpcall(function(a, b) return a + b, "two" end, print, 40, 2)
      """, chunkName: "results.lua")
    #expect(try vm.call(script) == [true, 42, "two"])
  }

  @Test func aSlowHostFunctionInAShortLoopIsStoppedAfterItReturns() throws {
    let vm = try makeVM()
    let slow = try vm.function(named: "slow") { _ in
      Thread.sleep(forTimeInterval: 0.05)
      return .none
    }
    let loop = try vm.load("local slow = ... for i = 1, 100 do slow() end return 'done'", chunkName: "slow.lua")
    let started = ContinuousClock.now
    let error = try #require(throws: LuaError.self) { try vm.call(loop, slow) }
    #expect(error.kind == .timeLimit)
    #expect(error.line == 1)
    // NB: not a timing assertion on speed: 100 calls of 50 ms would take 5 s without the limit.
    #expect(ContinuousClock.now - started < .seconds(4))
  }

  @Test(arguments: [
    ("concatenation", "local s = ('x'):rep(2^26) while true do local t = s .. s end"),
    ("comparison", "local a, b = ('x'):rep(2^27), ('x'):rep(2^27) while a == b do end"),
  ])
  func aLoopOfSlowSingleInstructionsIsStoppedByTheWatchdog(_ name: String, _ source: String) throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: nil, memoryBytes: 1 << 30, timePerCall: .milliseconds(300)))
    let loop = try vm.load(source, chunkName: "\(name).lua")
    let started = ContinuousClock.now
    let error = try #require(throws: LuaError.self) { try vm.call(loop) }
    #expect(error.kind == .timeLimit, "\(error)")
    // NB: not a speed assertion: a thousand such instructions pass between two clock readings of
    //     the hook (10 seconds and more); only the watchdog stops the loop this early.
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test func liftingTheTimeLimitLetsLongWorkFinish() throws {
    let vm = try makeVM(seconds: 0.05)
    vm.limits.timePerCall = nil
    let work = try vm.load("local s = 0 for i = 1, 3000000 do s = s + 1 end return s", chunkName: "work.lua")
    #expect(try vm.call(work) == [3_000_000])
  }
}
