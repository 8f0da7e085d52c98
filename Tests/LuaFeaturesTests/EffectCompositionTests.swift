import Clocks
import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// `merge`, `concat`, `cancellable`, `cancel`, `debounce`, `throttle` and `deps.clock.sleep`, with
/// time controlled by a `TestClock`.
@MainActor
struct EffectCompositionTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx

    local function log(entry) return fx.send { type = "log", entry = entry } end

    return lunar.feature {
      name = "Timing",
      initial = { log = {} },
      reduce = function(state, action, deps)
        local t = action.type
        if t == "log" then
          state.log[#state.log + 1] = action.entry
        elseif t == "merge" then
          return fx.merge(log("a"), fx.none, log("b"))
        elseif t == "concat" then
          return fx.concat(
            fx.run(function(send)
              deps.clock.sleep(1)
              send { type = "log", entry = "first" }
            end),
            log("second")
          )
        elseif t == "sleep" then
          local seconds = action.seconds
          return fx.run(function(send)
            deps.clock.sleep(seconds)
            send { type = "log", entry = "woke" }
          end)
        elseif t == "search" then
          local query = action.query
          return fx.run(function(send)
            deps.clock.sleep(1)
            send { type = "log", entry = query }
          end):cancellable("search", { cancelInFlight = action.cancelInFlight })
        elseif t == "cancelSearch" then
          return fx.cancel("search")
        elseif t == "typed" then
          return fx.debounce("typing", 0.5, { type = "log", entry = action.text })
        elseif t == "scrolled" then
          return fx.throttle("scroll", 1, { type = "log", entry = action.page }, action.latest)
        end
      end,
    }
    """

  func makeStore(clock: TestClock<Duration>) throws -> TestStore<LuaState, LuaValue> {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source, chunkName: "timing.lua")
    return TestStore(initialState: feature.initialState) {
      feature.reducer()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func mergeRunsEveryEffect() async throws {
    let store = try makeStore(clock: TestClock())
    await store.send(["type": "merge"])
    await store.receive(["type": "log", "entry": "a"]) { $0.log = ["a"] }
    await store.receive(["type": "log", "entry": "b"]) { $0.log = ["a", "b"] }
  }

  @Test func concatRunsTheNextEffectWhenThePreviousEnds() async throws {
    let clock = TestClock()
    let store = try makeStore(clock: clock)
    await store.send(["type": "concat"])
    await clock.advance(by: .milliseconds(999))
    #expect(store.state.log == [:])
    await clock.advance(by: .milliseconds(1))
    await store.receive(["type": "log", "entry": "first"]) { $0.log = ["first"] }
    await store.receive(["type": "log", "entry": "second"]) { $0.log = ["first", "second"] }
  }

  @Test func clockSleepWaitsForTheTestClock() async throws {
    let clock = TestClock()
    let store = try makeStore(clock: clock)
    await store.send(["type": "sleep", "seconds": 2.5])
    await clock.advance(by: .seconds(2))
    #expect(store.state.log == [:])
    await clock.advance(by: .milliseconds(500))
    await store.receive(["type": "log", "entry": "woke"]) { $0.log = ["woke"] }
  }

  @Test func cancelInFlightReplacesTheRunningEffect() async throws {
    let clock = TestClock()
    let store = try makeStore(clock: clock)
    await store.send(["type": "search", "query": "a", "cancelInFlight": true])
    await clock.advance(by: .milliseconds(500))
    await store.send(["type": "search", "query": "ab", "cancelInFlight": true])
    await clock.advance(by: .seconds(1))
    await store.receive(["type": "log", "entry": "ab"]) { $0.log = ["ab"] }
  }

  @Test func withoutCancelInFlightBothEffectsRun() async throws {
    let clock = TestClock()
    let store = try makeStore(clock: clock)
    await store.send(["type": "search", "query": "a"])
    await clock.advance(by: .milliseconds(500))
    await store.send(["type": "search", "query": "ab"])
    await clock.advance(by: .seconds(1))
    await store.receive(["type": "log", "entry": "a"]) { $0.log = ["a"] }
    await store.receive(["type": "log", "entry": "ab"]) { $0.log = ["a", "ab"] }
  }

  @Test func cancelStopsTheEffectsRunningUnderTheID() async throws {
    let clock = TestClock()
    let store = try makeStore(clock: clock)
    await store.send(["type": "search", "query": "a"])
    await store.send(["type": "cancelSearch"])
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.state.log == [:])
  }

  @Test func debounceSendsOnlyAfterAQuietPeriod() async throws {
    let clock = TestClock()
    let store = try makeStore(clock: clock)
    await store.send(["type": "typed", "text": "h"])
    await clock.advance(by: .milliseconds(300))
    await store.send(["type": "typed", "text": "hi"])
    await clock.advance(by: .milliseconds(499))
    #expect(store.state.log == [:])
    await clock.advance(by: .milliseconds(1))
    await store.receive(["type": "log", "entry": "hi"]) { $0.log = ["hi"] }
  }

  @Test func throttleWithLatestSendsTheMostRecentActionWhenTheWindowCloses() async throws {
    let clock = TestClock()
    let store = try makeStore(clock: clock)
    await store.send(["type": "scrolled", "page": 1, "latest": true])
    await store.receive(["type": "log", "entry": 1]) { $0.log = [1] }
    await store.send(["type": "scrolled", "page": 2, "latest": true])
    await store.send(["type": "scrolled", "page": 3, "latest": true])
    await clock.advance(by: .seconds(1))
    await store.receive(["type": "log", "entry": 3]) { $0.log = [1, 3] }
    await store.finish()
  }

  @Test func throttleWithoutLatestSendsTheFirstHeldAction() async throws {
    let clock = TestClock()
    let store = try makeStore(clock: clock)
    await store.send(["type": "scrolled", "page": 1])
    await store.receive(["type": "log", "entry": 1]) { $0.log = [1] }
    await store.send(["type": "scrolled", "page": 2])
    await store.send(["type": "scrolled", "page": 3])
    await clock.advance(by: .seconds(1))
    await store.receive(["type": "log", "entry": 2]) { $0.log = [1, 2] }
    await store.finish()
  }
}
