import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// The metatable that marks lists is reachable by a script (`getmetatable` of a list). A `__gc`
/// planted in it must never make the tables the host marks finalized: a finalizer runs at moments
/// no budget covers, and one that loops would hang the host.
@MainActor
@Suite struct ArrayMarkerFinalizerTests {
  static let planter = #"""
    local lunar = require "lunar"
    local finalized = 0
    return lunar.feature {
      name = "Planter",
      initial = { seen = 0, finalized = 0 },
      reduce = function(state, action)
        if action.type == "plant" then
          getmetatable(lunar.array()).__gc = function() finalized = finalized + 1 end
        elseif action.type == "copy" then
          state.kept = action.list
          state.copy = state.kept
        end
        state.seen = state.seen + 1
        state.finalized = finalized
      end,
    }
    """#

  @Test func aFinalizerPlantedInTheListMarkerNeverRuns() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.planter, chunkName: "planter.lua")
    let store = makeStore(feature.reducer(), state: feature.initialState)
    store.send(["type": "plant"])
    let list = LuaValue.array((1...8).map { .integer($0) })
    for _ in 0..<3000 {
      store.send(["type": "copy", "list": list])
    }
    #expect(harness.takeErrors().isEmpty)
    #expect(store.state.seen == 3001)
    #expect(store.state.finalized == 0)
  }
}
