import Foundation
import LuaBridge
import Testing

/// The CPU-time limit counts the work of the calling thread, not the wall clock: a loaded machine
/// does not fail legitimate work, and time spent waiting is not work.
@Suite struct CPUTimeLimitTests {
  @Test func aLoopStopsAtTheCPUTimeLimitWithItsLine() throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: nil, timePerCall: nil, cpuTimePerCall: .milliseconds(50)))
    let loop = try vm.load("local n = 0\nwhile true do n = n + 1 end", chunkName: "loop.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(loop) }
    #expect(error.kind == .timeLimit)
    #expect(error.message == "loop.lua:2: CPU time limit exceeded (0.05 s per call)")
    #expect(try vm.call(vm.load("return 1", chunkName: "next.lua")) == [1])
  }

  @Test func waitingIsNotCPUTime() throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: nil, timePerCall: nil, cpuTimePerCall: .milliseconds(50)))
    let wait = try vm.function(named: "wait") { _ in
      Thread.sleep(forTimeInterval: 0.2)
      return .none
    }
    let script = try vm.load("local wait = ... for i = 1, 1000 do end wait() for i = 1, 1000 do end return 'done'", chunkName: "wait.lua")
    #expect(try vm.call(script, wait) == ["done"])
  }

  @Test func theCPUTimeLimitHoldsInsideLibraryFunctions() throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: nil, timePerCall: nil, cpuTimePerCall: .milliseconds(50)))
    let match = try vm.load("return string.find(string.rep('a', 40) .. 'b', string.rep('a*', 40) .. 'c')", chunkName: "match.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(match) }
    #expect(error.message == "match.lua:1: CPU time limit exceeded (0.05 s per call)")
  }

  @Test func aMillionStringKeysPassWithTheDefaultLimits() throws {
    let vm = try LuaVM(limits: .default)
    let sandbox = try vm.makeSandbox()
    let keys = try sandbox.load("local t, n = {}, 0 for i = 1, 1000000 do t['k'..i] = i end for _ in pairs(t) do n = n + 1 end return n", chunkName: "keys.lua")
    #expect(try vm.call(keys) == [1_000_000])
  }
}
