import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// Composition's routing runs outside the instruction budget, the authors' reducers inside it: a
/// child or a body reducer that loops forever still runs out of budget, is rolled back, and the
/// store goes on.
@MainActor
struct CompositionBudgetTests {
  static let source = """
    local lunar = require "lunar"

    local Row = lunar.feature {
      name = "Row",
      initial = { id = 0, done = false },
      reduce = function(state, action)
        if action.type == "toggle" then
          state.done = not state.done
        elseif action.type == "spin" then
          state.done = true
          while true do end -- child spins
        end
      end,
    }

    return lunar.feature {
      name = "Rows",
      initial = { rows = { { id = 1, done = false }, { id = 2, done = false } }, spins = 0 },
      body = {
        lunar.forEach("rows", Row),
        lunar.reduce(function(state, action)
          if action.type == "spin" then
            state.spins = state.spins + 1
            while true do end -- parent spins
          end
        end),
      },
    }
    """

  let harness: FeatureHarness
  let feature: LuaFeature

  init() throws {
    harness = try FeatureHarness(limits: LuaVM.Limits(instructionsPerCall: 100_000, timePerCall: nil))
    feature = try harness.load(Self.source, chunkName: "rows.lua")
  }

  @Test func aChildThatLoopsForeverRunsOutOfBudgetAndIsRolledBack() async throws {
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    await store.send(["type": "rows", "id": 2, "action": ["type": "spin"]])
    let error = try #require(harness.takeErrors().first)
    #expect(error.luaKind == .instructionLimit)
    #expect(error.location == "rows.lua:\(line(of: "-- child spins", in: Self.source)!)")
    await store.send(["type": "rows", "id": 2, "action": ["type": "toggle"]]) {
      $0.rows = [["id": 1, "done": false], ["id": 2, "done": true]]
    }
  }

  @Test func aBodyReducerThatLoopsForeverRunsOutOfBudgetAndIsRolledBack() async throws {
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    await store.send(["type": "spin"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.luaKind == .instructionLimit)
    #expect(error.location == "rows.lua:\(line(of: "-- parent spins", in: Self.source)!)")
    await store.send(["type": "rows", "id": 1, "action": ["type": "toggle"]]) {
      $0.rows = [["id": 1, "done": true], ["id": 2, "done": false]]
    }
  }

  @Test func anErrorInTheRoutingLeavesTheBudgetOnForTheNextCall() async throws {
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    // NB: an unknown row fails in the routing itself, while the budget is off.
    await store.send(["type": "rows", "id": 99, "action": ["type": "toggle"]])
    #expect(harness.takeErrors().first?.message.contains("no element with id 99") == true)
    let plain = try harness.load(
      """
      local lunar = require "lunar"
      return lunar.feature { name = "Spin", initial = {}, reduce = function() while true do end end }
      """, chunkName: "spin.lua")
    let spinner = TestStore(initialState: plain.initialState) { plain.reducer() }
    await spinner.send(["type": "go"])
    #expect(harness.takeErrors().first?.luaKind == .instructionLimit)
  }
}
