import Clocks
import Composable
import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// Cancellation ids belong to one feature instance: two instances of a feature never cancel each
/// other's effects, in two stores or in one.
@MainActor
struct CancellationIDTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx

    return lunar.feature {
      name = "Search",
      initial = { results = {} },
      reduce = function(state, action, deps)
        if action.who ~= nil and action.who ~= deps.who() then return end
        if action.type == "search" then
          local query = action.query
          return fx.run(function(send)
            deps.clock.sleep(1)
            send { type = "result", query = query }
          end):cancellable("search", { cancelInFlight = true })
        elseif action.type == "cancel" then
          return fx.cancel("search")
        elseif action.type == "result" then
          state.results[#state.results + 1] = action.query
        end
      end,
    }
    """

  @Test func twoStoresOfOneFeatureNeverCancelEachOther() async throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source, chunkName: "search.lua")
    let clock = TestClock()
    let first = TestStore(initialState: feature.initialState) { feature.reducer() } withDependencies: {
      $0.continuousClock = clock
    }
    let second = TestStore(initialState: feature.initialState) { feature.reducer() } withDependencies: {
      $0.continuousClock = clock
    }
    await first.send(["type": "search", "query": "a"])
    await second.send(["type": "search", "query": "b"])
    await second.send(["type": "cancel"])
    await clock.advance(by: .seconds(1))
    await first.receive(["type": "result", "query": "a"]) { $0.results = ["a"] }
    await second.finish()
  }

  @Test func twoInstancesInOneStoreNeverCancelEachOther() async throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source, chunkName: "search.lua")
    func instance(_ name: String) throws -> LuaReducer {
      let overrides = try harness.host.vm.newTable()
      try overrides.set("who", try harness.host.vm.load("return '\(name)'", chunkName: "who"))
      return feature.reducer(dependencyOverrides: overrides)
    }
    let a = try instance("a")
    let b = try instance("b")
    let clock = TestClock()
    let store = TestStore(initialState: feature.initialState) {
      a
      b
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(["type": "search", "query": "x", "who": "a"])
    await store.send(["type": "search", "query": "y", "who": "b"])
    await store.send(["type": "cancel", "who": "b"])
    await clock.advance(by: .seconds(1))
    await store.receive(["type": "result", "query": "x"]) { $0.results = ["x", "x"] }
    #expect(harness.errors.isEmpty)
  }
}
