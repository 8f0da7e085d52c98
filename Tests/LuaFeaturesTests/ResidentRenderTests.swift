import Composable
import LuaBridge
@testable import LuaFeatures
import Testing

/// A reducer renders its store's state from a copy of the resident table made in the VM: nothing
/// is pushed from Swift or read into it, and a view that writes into its state changes nothing.
@MainActor
struct ResidentRenderTests {
  static let source = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Scribbler",
      initial = { count = 0, items = { "b", "a" } },
      reduce = function(state, action)
        if action.type == "increment" then state.count = state.count + 1 end
      end,
      view = function(state)
        local seen = "count " .. state.count .. " " .. table.concat(state.items, ",")
        state.count = 100
        table.sort(state.items)
        state.items[#state.items + 1] = "z"
        return seen
      end,
      migrate = function(state) state.count = state.count * 10 end,
    }
    """

  @Test func theStoresStateIsRenderedWithoutBeingReadIntoSwift() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(state.view?.isRead == false)

    #expect(try reducer.render(state) == "count 1 b,a")

    #expect(state.view?.isRead == false)
  }

  @Test func aViewWritingIntoTheResidentStateLeavesTheRunningStateAsItWas() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])

    #expect(try reducer.render(state) == "count 1 b,a")
    #expect(try reducer.render(state) == "count 1 b,a")
    _ = reducer.reduce(into: &state, action: ["type": "increment"])

    #expect(state.value == ["count": 2, "items": ["b", "a"]])
    #expect(try reducer.residentState() == ["count": 2, "items": ["b", "a"]])
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func aStateThatIsNotResidentIsRenderedFromSwift() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])

    #expect(try reducer.render(LuaState(["count": 7, "items": ["c"]])) == "count 7 c")
    #expect(try reducer.render(feature.initialState) == "count 0 b,a")
    #expect(try reducer.render(state) == "count 1 b,a")
  }

  @Test func afterASwapTheStateBeforeMigrateIsRenderedNotTheMigratedTable() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])

    try reducer.swap(to: try harness.load(Self.source))

    #expect(try reducer.render(state) == "count 1 b,a")
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(try reducer.render(state) == "count 11 b,a")
  }
}
