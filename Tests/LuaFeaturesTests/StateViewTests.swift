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

  /// A reducer of `source` on a host of its own, with `state` its state after `actions`.
  /// NB: `state` is the caller's only copy, as a store's state is.
  func reduced(_ actions: [LuaValue], into state: inout LuaState) throws -> (FeatureHarness, LuaReducer) {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    state = feature.initialState
    for action in actions { _ = reducer.reduce(into: &state, action: action) }
    return (harness, reducer)
  }

  @Test func aStateNobodyReadsIsAViewAfterAnAction() throws {
    var state = LuaState(.nil)
    let (_, reducer) = try reduced([["type": "increment"]], into: &state)
    #expect(state.view?.isRead == false)
    #expect(state.box === StateBox.empty)
    #expect(state.count == 1)
    withExtendedLifetime(reducer) {}
  }

  @Test func aViewReadsAsTheLastActionLeftTheState() throws {
    var state = LuaState(.nil)
    let (_, reducer) = try reduced([["type": "increment"], ["type": "add", "title": "milk"], ["type": "increment"]], into: &state)
    #expect(state.view != nil)
    #expect(state.value == ["count": 2, "rows": [["id": 1, "title": "milk"]]])
    #expect(try reducer.residentState() == state.value)
  }

  @Test func aStateKeptAcrossAnActionKeepsItsValue() throws {
    var state = LuaState(.nil)
    let (_, reducer) = try reduced([["type": "increment"]], into: &state)
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
    var state = LuaState(.nil)
    let (_, reducer) = try reduced([["type": "increment"]], into: &state)
    #expect(state.count == 1)
    _ = reducer.reduce(into: &state, action: ["type": "add", "title": "milk"])
    #expect(state.view == nil)
    #expect(state.value == ["count": 1, "rows": [["id": 1, "title": "milk"]]])
    #expect(try reducer.residentState() == state.value)
  }

  @Test func aFailedActionLeavesAViewAsItWas() throws {
    var state = LuaState(.nil)
    let (harness, _) = try reduced([["type": "increment"], ["type": "fail"]], into: &state)
    #expect(harness.takeErrors().map(\.message).first?.contains("refused") == true)
    #expect(state.view != nil)
    #expect(state.count == 1)
  }

  @Test func aViewReadFromAnotherThreadWaitsForTheMainActor() async throws {
    var state = LuaState(.nil)
    let (_, reducer) = try reduced([["type": "increment"]], into: &state)
    let view = state
    #expect(view.view?.isRead == false)
    let count = await Task.detached { view.count }.value
    #expect(count == 1)
    // NB: the reducer alive until here: its view is read from the VM, not settled by its deinit.
    withExtendedLifetime(reducer) {}
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
    var state = LuaState(.nil)
    let (harness, reducer) = try reduced([["type": "increment"]], into: &state)
    let kept = state
    try reducer.swap(to: try harness.load(Self.source))
    _ = reducer.reduce(into: &state, action: ["type": "increment"])
    #expect(kept.count == 1)
    #expect(state.count == 11)
  }

  @Test func aStateSetFromSwiftLeavesTheViewBeforeItAsItWas() throws {
    var state = LuaState(.nil)
    let (_, reducer) = try reduced([["type": "increment"]], into: &state)
    let kept = state
    var other = LuaState(["count": 40, "rows": []])
    _ = reducer.reduce(into: &other, action: ["type": "increment"])
    #expect(kept.count == 1)
    #expect(other.count == 41)
  }

  @Test func lastChangesOfAViewNameTheTablesAnActionPut() throws {
    var state = LuaState(.nil)
    let (_, reducer) = try reduced([["type": "add", "title": "milk"]], into: &state)
    #expect(state.view != nil)
    #expect(reducer.lastChanges == [LuaStateChange(path: ["rows", 1], value: ["id": 1, "title": "milk"])])
  }
}
