import Composable
import LuaBridge
import Testing
@testable import LuaFeatures

/// A script's top level, a reload and a view are calls like an action: a run-away in them is
/// stopped by the time limit, and the host goes on with what it had.
@MainActor
@Suite struct RunawayScriptTests {
  static let limits = LuaVM.Limits(instructionsPerCall: nil, memoryBytes: 64 << 20, timePerCall: .milliseconds(300))

  static let counter = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Counter",
      initial = { count = 0 },
      reduce = function(state, action)
        if action.type == "increment" then state.count = state.count + 1 end
      end,
      view = function(state)
        if state.count == 2 then
          local function spin() while true do end end
          xpcall(spin, spin)
        end
        return "count: " .. state.count
      end,
    }
    """

  static let loopsAtTopLevel = """
    local lunar = require "lunar"
    local function spin() while true do end end
    xpcall(spin, spin)
    return lunar.feature { name = "Never", initial = {}, reduce = function() end }
    """

  @Test func aTopLevelWhoseHandlerLoopsFailsToLoadWithTheTimeLimitError() throws {
    let harness = try FeatureHarness(limits: Self.limits)

    let error = try #require(throws: LuaFeatureError.self) { try harness.load(Self.loopsAtTopLevel, chunkName: "never.lua") }
    #expect(error.kind == .load)
    // NB: xpcall hands the error back; the next instruction (line 4) raises it again.
    #expect(error.message.contains("never.lua:4: time limit exceeded (0.3 s per call)"), "\(error)")
  }

  @Test func aReloadThatLoopsKeepsTheRunningVersionServing() async throws {
    let harness = try FeatureHarness(limits: Self.limits)
    let feature = try harness.load(Self.counter)
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    store.send(.table(["type": "increment"]))

    #expect(throws: LuaFeatureError.self) { try harness.load(Self.loopsAtTopLevel, chunkName: "feature.lua") }
    store.send(.table(["type": "increment"]))

    #expect(store.state.value[LuaString("count")] == .integer(2))
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func aViewThatLoopsIsAnErrorAndTheStateStaysAsItWas() throws {
    let harness = try FeatureHarness(limits: Self.limits)
    let feature = try harness.load(Self.counter)
    let store = makeStore(feature.reducer(), state: feature.initialState)
    store.send(.table(["type": "increment"]))
    #expect(try feature.render(store.state) == "count: 1")
    store.send(.table(["type": "increment"]))

    let error = try #require(throws: LuaFeatureError.self) { try feature.render(store.state) }
    #expect(error.message.contains("time limit exceeded (0.3 s per call)"), "\(error)")
    #expect(store.state.value[LuaString("count")] == .integer(2))
    store.send(.table(["type": "increment"]))
    #expect(try feature.render(store.state) == "count: 3")
  }
}
