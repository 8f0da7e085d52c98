import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// `lunar.fx` is the host's own Lua: it runs outside the instruction budget, which counts the
/// author's code. So it never runs a script's code: what a script hands it is read raw, and a
/// table whose metamethods would loop is never asked anything.
@MainActor
struct HostCodeBudgetTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx
    local function spin() while true do end end
    local trap = setmetatable({}, { __index = spin, __eq = spin, __len = spin, __pairs = spin, __call = spin })

    return lunar.feature {
      name = "Traps",
      initial = { ran = 0 },
      reduce = function(state, action)
        local t = action.type
        if t == "run" then
          return fx.run(function(send) send { type = "ran" } end, trap) -- run
        elseif t == "ran" then
          state.ran = state.ran + 1
        elseif t == "cancellable" then
          return fx.none.cancellable(trap, "id") -- cancellable
        elseif t == "merge" then
          return fx.merge(trap) -- merge
        elseif t == "send" then
          return fx.send(trap) -- send
        end
      end,
    }
    """

  let harness: FeatureHarness
  let feature: LuaFeature

  init() throws {
    harness = try FeatureHarness(limits: LuaVM.Limits(instructionsPerCall: 100_000, timePerCall: nil))
    feature = try harness.load(Self.source, chunkName: "traps.lua")
  }

  func at(_ marker: String) -> String { "traps.lua:\(line(of: marker, in: Self.source)!)" }

  @Test func fxRunReadsItsOptionsRawAndNeverAsksATrap() async throws {
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    await store.send(["type": "run"])
    await store.receive(["type": "ran"]) { $0.ran = 1 }
    #expect(harness.takeErrors().isEmpty)
  }

  @Test(arguments: [
    ("cancellable", #"cancellable is a method of effects, as in fx.run(load):cancellable("load"), got a table"#),
    ("merge", "fx.merge expects effects (from lunar.fx), argument 1 is a table"),
    ("send", "fx.send expects an action with a string `type` field, got type = nil"),
  ])
  func anFxFunctionGivenATrapRefusesItWithoutAskingIt(action: String, message: String) async throws {
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    await store.send(["type": .text(action)])
    let error = try #require(harness.takeErrors().first)
    #expect(error.luaKind != .instructionLimit)
    #expect(error.message == "\(at("-- \(action)")): \(message)")
  }
}
