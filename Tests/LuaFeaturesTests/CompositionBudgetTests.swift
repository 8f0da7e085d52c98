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

  @Test func aScriptThatCatchesAnErrorOfTheRoutingStillRunsUnderTheBudget() async throws {
    // NB: the routing's errors are raised while the budget is off; a script's pcall catching one
    //     must not leave the rest of its reducer untimed.
    let catcher = try harness.load(
      """
      local lunar = require "lunar"
      local Row = lunar.feature { name = "Row", initial = { id = 0 }, reduce = function() end }
      local Rows = lunar.feature { name = "Rows", initial = { rows = {} }, body = { lunar.forEach("rows", Row) } }
      local function spin() while true do end end
      return lunar.feature {
        name = "Catcher",
        initial = { inner = { rows = {} }, caught = false },
        body = {
          lunar.scope("inner", Rows),
          lunar.reduce(function(state, action)
            if action.type == "go" then
              local ok = pcall(Rows.reduce, state.inner, { type = "rows", id = 99, action = { type = "x" } })
              state.caught = not ok
              spin() -- spins after the catch
            elseif action.type == "effect" then
              local ok = pcall(lunar.fx.run, 42)
              state.caught = not ok
              spin() -- spins after an fx error
            elseif action.type == "handled" then
              local ok = xpcall(lunar.fx.send, function(e) return e end, "not an action")
              state.caught = not ok
              spin() -- spins after xpcall
            end
          end),
        },
      }
      """, chunkName: "catcher.lua")
    let store = TestStore(initialState: catcher.initialState) { catcher.reducer() }
    await store.send(["type": "go"])
    let routing = try #require(harness.takeErrors().first)
    #expect(routing.luaKind == .instructionLimit)
    await store.send(["type": "effect"])
    let fx = try #require(harness.takeErrors().first)
    #expect(fx.luaKind == .instructionLimit)
    await store.send(["type": "handled"])
    let handled = try #require(harness.takeErrors().first)
    #expect(handled.luaKind == .instructionLimit)
  }

  @Test func aBodyReducerThatReturnsATableWithTrapsIsRefusedWithoutRunningThem() async throws {
    // NB: the routing runs outside the budget: were it to compare or index the table, its
    //     metamethods would loop with nothing to stop them but the clock.
    let trap = try harness.load(
      """
      local lunar = require "lunar"
      local function spin() while true do end end
      local trap = setmetatable({}, { __eq = spin, __index = spin, __len = spin })
      local Row = lunar.feature { name = "Row", initial = { id = 0 }, reduce = function() return trap end }
      return lunar.feature {
        name = "Trap",
        initial = { rows = { { id = 1 } }, count = 0 },
        body = {
          lunar.forEach("rows", Row),
          lunar.reduce(function(state, action)
            if action.type == "go" then
              state.count = state.count + 1
              return trap
            end
          end),
        },
      }
      """, chunkName: "trap.lua")
    let store = TestStore(initialState: trap.initialState) { trap.reducer() }
    await store.send(["type": "go"])
    let parent = try #require(harness.takeErrors().first)
    #expect(parent.luaKind != .instructionLimit)
    #expect(
      parent.message
        == "trap.lua:10: lunar.reduce (trap.lua:10) returned a table; return an effect from lunar.fx (or nothing)")
    await store.send(["type": "rows", "id": 1, "action": ["type": "poke"]])
    let child = try #require(harness.takeErrors().first)
    #expect(child.luaKind != .instructionLimit)
    #expect(
      child.message == "trap.lua:10: reduce (trap.lua:4) returned a table; return an effect from lunar.fx (or nothing)")
  }

  @Test func aComposedReducerCalledWithAnActionThatIsNotATableFailsAndIsRolledBack() async throws {
    let caller = try harness.load(
      """
      local lunar = require "lunar"
      local Row = lunar.feature { name = "Row", initial = { id = 0 }, reduce = function() end }
      local Inner = lunar.feature {
        name = "Inner", initial = { rows = {} }, body = { lunar.forEach("rows", Row) },
      }
      return lunar.feature {
        name = "Outer",
        initial = { inner = { rows = {} }, count = 0 },
        reduce = function(state)
          state.count = state.count + 1
          Inner.reduce(state.inner, "go") -- not an action
        end,
      }
      """, chunkName: "outer.lua")
    let store = TestStore(initialState: caller.initialState) { caller.reducer() }
    await store.send(["type": "go"])
    let error = try #require(harness.takeErrors().first)
    #expect(
      error.message
        == "outer.lua:11: Inner.reduce expects an action table like { type = \"increment\" }, got \"go\"")
  }
}
