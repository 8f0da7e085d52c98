import Composable
import LuaBridge
@testable import LuaFeatures
import Testing

/// A state nobody reads is a view of the table resident in Lua (no copy in Swift); reading it, or
/// keeping it across an action, gives exactly what a copy would.
@MainActor
struct StateViewTests {
  static let source = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Counter",
      initial = { count = 0, rows = {} },
      reduce = function(state, action)
        if action.type == "increment" then
          state.count = state.count + 1
        elseif action.type == "add" then
          state.rows[#state.rows + 1] = { id = #state.rows + 1, title = action.title }
        elseif action.type == "fail" then
          state.count = 99
          error("refused")
        end
      end,
      migrate = function(state)
        state.count = state.count * 10
      end,
    }
    """

  @Test func aStateNobodyReadsIsAViewAfterAnAction() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(state.view != nil)
    #expect(state.box === StateBox.empty)
    #expect(state.count == 1)
  }

  @Test func aViewReadsAsTheLastActionLeftTheState() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    _ = reducer.reduce(into: &state, action: ["type": "add", "title": "milk"])
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(state.view != nil)
    #expect(state.value == ["count": 2, "rows": [["id": 1, "title": "milk"]]])
    #expect(try reducer.residentState() == state.value)
  }

  @Test func aStateKeptAcrossAnActionKeepsItsValue() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    let kept = state
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(kept.count == 1)
    #expect(state.count == 2)
    // NB: a state kept across an action: from then on each action patches a copy.
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(state.view == nil)
    #expect(state.count == 3)
    #expect(kept.count == 1)
  }

  @Test func aViewReadOnceIsPatchedFromThenOn() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(state.count == 1)
    _ = reducer.reduce(into: &state, action: ["type": "add", "title": "milk"])
    #expect(state.view == nil)
    #expect(state.value == ["count": 1, "rows": [["id": 1, "title": "milk"]]])
    #expect(try reducer.residentState() == state.value)
  }

  @Test func aFailedActionLeavesAViewAsItWas() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    _ = reducer.reduce(into: &state, action: ["type": "fail"])
    #expect(harness.takeErrors().map(\.message).first?.contains("refused") == true)
    #expect(state.view != nil)
    #expect(state.count == 1)
  }

  @Test func aViewReadFromAnotherThreadWaitsForTheMainActor() async throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    let view = state
    let count = await Task.detached { view.count }.value
    #expect(count == 1)
  }

  @Test func aViewOutlivesItsStore() throws {
    var kept: LuaState?
    do {
      let harness = try FeatureHarness()
      let feature = try harness.load(Self.source)
      let store = Store(initialState: feature.initialState) { feature.reducer() }
      store.send(["type": "increment"])
      store.send(["type": "add", "title": "milk"])
      kept = store.state
    }
    #expect(kept?.value == ["count": 1, "rows": [["id": 1, "title": "milk"]]])
  }

  @Test func aViewKeptThroughAReloadKeepsTheStateBeforeMigrate() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    let kept = state
    try reducer.swap(to: try harness.load(Self.source))
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(kept.count == 1)
    #expect(state.count == 11)
  }

  @Test func aStateSetFromSwiftLeavesTheViewBeforeItAsItWas() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    let kept = state
    var other = LuaState(["count": 40, "rows": []])
    _ = reducer.reduce(into: &other, action: ["type": "increment"])
    #expect(kept.count == 1)
    #expect(other.count == 41)
  }

  @Test func lastChangesOfAViewNameTheTablesAnActionPut() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    var state = feature.initialState
    _ = reducer.reduce(into: &state, action: ["type": "add", "title": "milk"])
    #expect(state.view != nil)
    #expect(reducer.lastChanges == [LuaStateChange(path: ["rows", 1], value: ["id": 1, "title": "milk"])])
  }
}
