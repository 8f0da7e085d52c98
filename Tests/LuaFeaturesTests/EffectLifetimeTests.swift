import Clocks
import Composable
import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// Cancelling an effect closes its coroutine (its to-be-closed variables run), and tearing down
/// the store closes them all.
@MainActor
struct EffectLifetimeTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx

    return lunar.feature {
      name = "Waiter",
      initial = {},
      reduce = function(state, action, deps)
        if action.type == "wait" then
          return fx.run(function(send)
            local guard <close> = setmetatable({}, { __close = function() deps.probe.hit() end })
            deps.clock.sleep(60)
            send { type = "done" }
          end):cancellable("wait")
        elseif action.type == "stop" then
          return fx.cancel("wait")
        end
      end,
    }
    """

  @Test func cancellingAnEffectClosesItsCoroutine() async throws {
    let probe = Probe()
    let harness = try FeatureHarness(dependencies: .testing(probe: probe))
    let feature = try harness.load(Self.source, chunkName: "waiter.lua")
    let reducer = feature.reducer()
    let store = TestStore(initialState: feature.initialState) {
      reducer
    } withDependencies: {
      $0.continuousClock = TestClock()
    }
    let waiting = await store.send(["type": "wait"])
    #expect(reducer.liveCoroutines == 1)
    #expect(probe.count == 0)
    await store.send(["type": "stop"])
    await waiting.finish()
    #expect(probe.count == 1)
    #expect(reducer.liveCoroutines == 0)
    #expect(harness.errors.isEmpty)
  }

  @Test func tearingDownTheStoreClosesEveryCoroutine() async throws {
    let probe = Probe()
    let harness = try FeatureHarness(dependencies: .testing(probe: probe))
    let feature = try harness.load(Self.source, chunkName: "waiter.lua")
    var store: TestStore<LuaState, LuaValue>? = TestStore(initialState: feature.initialState) {
      feature.reducer()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }
    store?.exhaustivity = .off
    let first = await store?.send(["type": "wait"])
    let second = await store?.send(["type": "wait"])
    #expect(probe.count == 0)
    store = nil
    await first?.finish()
    await second?.finish()
    #expect(probe.count == 2)
    #expect(harness.errors.isEmpty)
  }
}
