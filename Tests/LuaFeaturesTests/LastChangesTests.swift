import Composable
import LuaBridge
@testable import LuaFeatures
import Testing

/// `LuaReducer.lastChanges` says what the last action changed, as paths and values.
@MainActor
struct LastChangesTests {
  static let source = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Profile",
      initial = { count = 0, fact = "old", profile = { name = "Ada" }, tags = { "a" } },
      reduce = function(state, action)
        if action.type == "increment" then
          state.count = state.count + 1
          state.fact = nil
        elseif action.type == "rename" then
          state.profile.name = action.name
        elseif action.type == "tag" then
          state.tags[#state.tags + 1] = action.tag
        elseif action.type == "fail" then
          state.count = 99
          error("no")
        end
      end,
    }
    """

  func run(_ actions: [LuaValue]) throws -> (LuaReducer, FeatureHarness) {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    for action in actions { store.send(action) }
    return (reducer, harness)
  }

  @Test func anActionReportsEachFieldItChangedWithItsNewValue() throws {
    let (reducer, _) = try run([["type": "increment"]])
    #expect(Set(reducer.lastChanges.map(\.description)) == ["state.count = 1", "state.fact = nil"])
  }

  @Test func aNestedWriteReportsItsWholePath() throws {
    let (reducer, _) = try run([["type": "rename", "name": "Grace"]])
    #expect(reducer.lastChanges == [LuaStateChange(path: ["profile", "name"], value: "Grace")])
  }

  @Test func anAppendReportsTheNewElementsPosition() throws {
    let (reducer, _) = try run([["type": "tag", "tag": "b"]])
    #expect(reducer.lastChanges == [LuaStateChange(path: ["tags", 2], value: "b")])
  }

  @Test func aFailedActionReportsNoChange() throws {
    let (reducer, harness) = try run([["type": "increment"], ["type": "fail"]])
    #expect(harness.takeErrors().count == 1)
    #expect(reducer.lastChanges.isEmpty)
  }

  /// A store whose state was read patches a copy of it after each action.
  func runReading(_ actions: [LuaValue]) throws -> (LuaReducer, Store<LuaState, LuaValue>) {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    _ = store.state.value
    for action in actions { store.send(action) }
    return (reducer, store)
  }

  @Test func aReadStateReportsTheFieldsItSetInPlace() throws {
    let (reducer, store) = try runReading([["type": "rename", "name": "Grace"]])
    #expect(reducer.lastChanges == [LuaStateChange(path: ["profile", "name"], value: "Grace")])
    #expect(store.state.value["profile"] == ["name": "Grace"])
  }

  @Test func aReadStateTakesAnActionThatRemovesAFieldAsAWhole() throws {
    // NB: `count` can be set in place, `fact = nil` cannot: the first is undone, and both planned.
    let (reducer, store) = try runReading([["type": "increment"]])
    #expect(Set(reducer.lastChanges.map(\.description)) == ["state.count = 1", "state.fact = nil"])
    #expect(store.state.value["count"] == 1)
    #expect(store.state.value["fact"] == .nil)
  }
}
