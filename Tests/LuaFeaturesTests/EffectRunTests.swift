import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// `fx.send` and `fx.run`: effects as coroutines driven by Swift, async dependencies that yield,
/// and errors that end one effect only.
@MainActor
struct EffectRunTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx

    return lunar.feature {
      name = "Effects",
      initial = { log = {} },
      reduce = function(state, action, deps)
        local t = action.type
        if t == "log" then
          state.log[#state.log + 1] = action.entry
        elseif t == "sendNow" then
          return fx.send { type = "log", entry = "sent" }
        elseif t == "runSends" then
          return fx.run(function(send)
            send { type = "log", entry = "one" }
            send { type = "log", entry = "two" }
          end)
        elseif t == "fetch" then
          local n = action.n
          return fx.run(function(send)
            send { type = "log", entry = deps.numbers.fetch(n) }
          end)
        elseif t == "fetchFailing" then
          return fx.run(function(send)
            local ok, message = pcall(deps.numbers.fail, 1)
            send { type = "log", entry = ok and "ok" or ("caught: " .. message) }
          end)
        elseif t == "catchOption" then
          return fx.run(function(send)
            deps.numbers.fail(2)
            send { type = "log", entry = "not reached" }
          end, { catch = function(message, send) send { type = "log", entry = "catch: " .. message } end })
        elseif t == "raiseInEffect" then
          return fx.merge(
            fx.run(function(send)
              error("effect broke") -- effect raise
            end),
            fx.run(function(send) send { type = "log", entry = "sibling" } end)
          )
        elseif t == "sendNumber" then
          return fx.run(function(send)
            send(42) -- bad send
          end)
        elseif t == "sendUntyped" then
          return fx.run(function(send)
            send { entry = "no type" } -- untyped send
          end)
        elseif t == "asyncInReducer" then
          state.log[#state.log + 1] = "partial"
          deps.numbers.fetch(1) -- async in reducer
        end
      end,
    }
    """

  func makeStore(_ harness: FeatureHarness) throws -> TestStore<LuaState, LuaValue> {
    let feature = try harness.load(Self.source, chunkName: "effects.lua")
    return TestStore(initialState: feature.initialState) { feature.reducer() }
  }

  @Test func fxSendFeedsTheActionBackAtOnce() async throws {
    let store = try makeStore(FeatureHarness(dependencies: .testing()))
    await store.send(["type": "sendNow"])
    await store.receive(["type": "log", "entry": "sent"]) { $0.log = ["sent"] }
  }

  @Test func fxRunSendsActionsInOrder() async throws {
    let store = try makeStore(FeatureHarness(dependencies: .testing()))
    await store.send(["type": "runSends"])
    await store.receive(["type": "log", "entry": "one"]) { $0.log = ["one"] }
    await store.receive(["type": "log", "entry": "two"]) { $0.log = ["one", "two"] }
  }

  @Test func anAsyncDependencyYieldsAndResumesWithItsResult() async throws {
    let store = try makeStore(FeatureHarness(dependencies: .testing()))
    await store.send(["type": "fetch", "n": 3])
    await store.receive(["type": "log", "entry": "3 is odd"]) { $0.log = ["3 is odd"] }
  }

  @Test func aFailingAsyncDependencyRaisesInTheCoroutineWherePcallCatchesIt() async throws {
    let store = try makeStore(FeatureHarness(dependencies: .testing()))
    await store.send(["type": "fetchFailing"])
    await store.receive({ $0[LuaString("type")] == "log" }) {
      $0.log = ["caught: deps.numbers.fail failed: the numbers server is down"]
    }
  }

  @Test func fxRunsCatchReceivesTheErrorAndCanSend() async throws {
    let harness = try FeatureHarness(dependencies: .testing())
    let store = try makeStore(harness)
    let failingLine = line(of: "deps.numbers.fail(2)", in: Self.source)!
    await store.send(["type": "catchOption"])
    await store.receive({ $0[LuaString("type")] == "log" }) {
      $0.log = [.text("catch: effects.lua:\(failingLine): deps.numbers.fail failed: the numbers server is down")]
    }
    #expect(harness.errors.isEmpty)
  }

  @Test func anEffectThatRaisesIsReportedAndEndsAloneWhileItsSiblingRuns() async throws {
    let harness = try FeatureHarness(dependencies: .testing())
    let store = try makeStore(harness)
    await store.send(["type": "raiseInEffect"])
    await store.receive(["type": "log", "entry": "sibling"]) { $0.log = ["sibling"] }
    let error = try #require(harness.errors.first)
    #expect(harness.errors.count == 1)
    #expect(error.kind == .effect)
    #expect(error.message.contains("effect broke"))
    #expect(error.file == "effects.lua")
    #expect(error.line == line(of: "-- effect raise", in: Self.source))
  }

  @Test func sendingANonTableNamesTheEffectsLine() async throws {
    let harness = try FeatureHarness(dependencies: .testing())
    let store = try makeStore(harness)
    await store.send(["type": "sendNumber"]).finish()
    let error = try #require(harness.errors.first)
    #expect(error.kind == .effect)
    #expect(error.location == "effects.lua:\(line(of: "-- bad send", in: Self.source)!)")
    #expect(error.message.contains("expects an action table"))
  }

  @Test func sendingATableWithoutTypeNamesTheEffectsLine() async throws {
    let harness = try FeatureHarness(dependencies: .testing())
    let store = try makeStore(harness)
    await store.send(["type": "sendUntyped"]).finish()
    let error = try #require(harness.errors.first)
    #expect(error.kind == .effect)
    #expect(error.location == "effects.lua:\(line(of: "-- untyped send", in: Self.source)!)")
    #expect(error.message.contains("string `type` field"))
  }

  @Test func callingAnAsyncDependencyInTheReducerIsAClearErrorAndRollsBack() async throws {
    let harness = try FeatureHarness(dependencies: .testing())
    let store = try makeStore(harness)
    await store.send(["type": "asyncInReducer"])
    let error = try #require(harness.errors.first)
    #expect(error.kind == .reducer)
    #expect(error.message.contains("deps.numbers.fetch is asynchronous: call it inside fx.run"))
    #expect(error.location == "effects.lua:\(line(of: "-- async in reducer", in: Self.source)!)")
  }
}
