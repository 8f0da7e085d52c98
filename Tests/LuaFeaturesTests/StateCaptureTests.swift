import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// `state` captured by an effect (or kept across actions) refuses access once its reducer call has
/// returned, with an error that says to capture values instead.
@MainActor
struct StateCaptureTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx
    local kept

    return lunar.feature {
      name = "Capture",
      initial = { count = 1, items = { 1, 2 } },
      reduce = function(state, action)
        if action.type == "readInEffect" then
          return fx.run(function(send)
            send { type = "got", count = state.count } -- captured read
          end)
        elseif action.type == "writeInEffect" then
          local items = state.items
          return fx.run(function(send)
            items[1] = 5 -- captured write
          end)
        elseif action.type == "keep" then
          kept = state
        elseif action.type == "useKept" then
          state.count = 2
          kept.count = 3 -- kept from an earlier action
        end
      end,
    }
    """

  func run(_ action: LuaValue) async throws -> (LuaFeatureError?, TestStore<LuaState, LuaValue>) {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source, chunkName: "capture.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    if action == ["type": "useKept"] { await store.send(["type": "keep"]) }
    await store.send(action).finish()
    #expect(harness.errors.count == 1)
    return (harness.errors.first, store)
  }

  @Test func readingCapturedStateInAnEffectFailsWithAdviceToCaptureValues() async throws {
    let (error, _) = try await run(["type": "readInEffect"])
    #expect(error?.kind == .effect)
    #expect(error?.location == "capture.lua:\(line(of: "-- captured read", in: Self.source)!)")
    #expect(error?.message.contains("state used outside its reducer call") == true)
    #expect(error?.message.contains("capture the values you need") == true)
  }

  @Test func writingCapturedStateInAnEffectFailsAndChangesNothing() async throws {
    let (error, store) = try await run(["type": "writeInEffect"])
    #expect(error?.kind == .effect)
    #expect(error?.location == "capture.lua:\(line(of: "-- captured write", in: Self.source)!)")
    #expect(store.state.items == [1, 2])
  }

  @Test func stateKeptFromAnEarlierActionFailsAndTheActionIsRolledBack() async throws {
    let (error, store) = try await run(["type": "useKept"])
    #expect(error?.kind == .reducer)
    #expect(error?.location == "capture.lua:\(line(of: "-- kept from an earlier action", in: Self.source)!)")
    #expect(store.state.count == 1)
  }
}
