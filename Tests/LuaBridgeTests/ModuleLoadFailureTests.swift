import Foundation
import LuaBridge
import Testing

/// A module whose load fails (it raises, or spends a limit) is reported at its own line, and a
/// later `require` loads it again instead of calling it circular.
@Suite struct ModuleLoadFailureTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var module: String
    var kind: LuaError.Kind
    var message: String
    var testDescription: String { module }
  }

  static let cases: [Case] = [
    Case(module: "modules.spin", kind: .instructionLimit, message: "modules/spin.lua:4: instruction limit exceeded (1000000 instructions per call)"),
    Case(module: "modules.raises", kind: .runtime, message: "modules/raises.lua:3: this module fails while it loads"),
  ]

  @Test(arguments: cases)
  func aModuleThatFailedToLoadFailsTheSameWayWhenRequiredAgain(_ c: Case) throws {
    let vm = try makeVM(instructions: 1_000_000)
    let sandbox = try vm.makeSandbox(.init(root: HostileCorpusTests.folder))
    let main = try sandbox.load("return require(...)", chunkName: "main.lua")
    for attempt in 1...3 {
      let error = try #require(throws: LuaError.self) { try main.call(c.module) }
      #expect(error.kind == c.kind, "attempt \(attempt): \(error)")
      #expect(error.message == c.message, "attempt \(attempt)")
    }
  }

  @Test func aModuleThatSpentTheTimeLimitNamesItsLineAndLoadsAgain() throws {
    let vm = try makeVM(instructions: nil, time: .milliseconds(50))
    let sandbox = try vm.makeSandbox(.init(root: HostileCorpusTests.folder))
    let main = try sandbox.load("return require(...)", chunkName: "main.lua")
    for _ in 1...2 {
      let error = try #require(throws: LuaError.self) { try main.call("modules.spin") }
      #expect(error.kind == .timeLimit, "\(error)")
      #expect(error.message == "modules/spin.lua:4: time limit exceeded (0.05 s per call)")
    }
  }

  @Test func aScriptThatCatchesAModulesErrorCanRequireItAgain() throws {
    let vm = try makeVM()
    let sandbox = try vm.makeSandbox(.init(root: HostileCorpusTests.folder))
    let values = try vm.call(sandbox.load("""
      local first = select(2, pcall(require, "modules.raises"))
      local second = select(2, pcall(require, "modules.raises"))
      return first, second
      """, chunkName: "main.lua"))
    #expect(values == ["modules/raises.lua:3: this module fails while it loads", "modules/raises.lua:3: this module fails while it loads"])
  }
}
