import Composable
import LuaBridge
@testable import LuaFeatures
import Testing

/// State has value semantics, as in Swift: a table is never in two places of the state, so the
/// snapshot Swift sees always equals the resident table.
@MainActor
struct ValueSemanticsTests {
  static let source = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Values",
      initial = { items = { { n = 1 }, { n = 2 }, { n = 3 } } },
      reduce = function(state, action)
        if action.type == "shareNewTable" then
          local t = { n = 1 }
          state.a = t
          state.b = t
        elseif action.type == "copySubtree" then
          state.selected = state.items[2]
        elseif action.type == "bump" then
          state.a.n = 5
          state.selected.n = 9
        elseif action.type == "sort" then
          table.sort(state.items, function(x, y) return x.n > y.n end)
        elseif action.type == "duplicateInPlace" then
          state.items[1] = state.items[3]
        elseif action.type == "bumpFirst" then
          state.items[1].n = 100
        elseif action.type == "snapshotWhole" then
          state.before = state
        elseif action.type == "wrapWhole" then
          state.history = { state }
        end
      end,
    }
    """

  func run(_ actions: [LuaValue]) throws -> (store: Store<LuaState, LuaValue>, reducer: LuaReducer, harness: FeatureHarness) {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    for action in actions { store.send(action) }
    return (store, reducer, harness)
  }

  @Test func aTableAssignedTwiceIsStoredTwiceAsCopies() throws {
    let (store, reducer, harness) = try run([["type": "shareNewTable"], ["type": "copySubtree"], ["type": "bump"]])
    #expect(harness.takeErrors().isEmpty)
    #expect(store.state.a == ["n": 5])
    #expect(store.state.b == ["n": 1])
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func assigningAPartOfStateStoresACopy() throws {
    let (store, reducer, _) = try run([["type": "shareNewTable"], ["type": "copySubtree"], ["type": "bump"]])
    #expect(store.state.selected == ["n": 9])
    #expect(store.state.items == [["n": 1], ["n": 2], ["n": 3]])
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func assigningTheWholeStateIntoItselfStoresACopyOfIt() throws {
    let (store, reducer, harness) = try run([["type": "snapshotWhole"], ["type": "bumpFirst"]])
    #expect(harness.takeErrors().isEmpty)
    #expect(store.state.before == ["items": [["n": 1], ["n": 2], ["n": 3]]])
    #expect(store.state.items == [["n": 100], ["n": 2], ["n": 3]])
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func theWholeStateInsideANewTableIsStoredAsACopy() throws {
    let (store, reducer, harness) = try run([["type": "wrapWhole"], ["type": "bumpFirst"]])
    #expect(harness.takeErrors().isEmpty)
    #expect(store.state.history == [["items": [["n": 1], ["n": 2], ["n": 3]]]])
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func sortingMovesElementsWithoutCopyingTheirValues() throws {
    let (store, reducer, _) = try run([["type": "sort"]])
    #expect(store.state.items == [["n": 3], ["n": 2], ["n": 1]])
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func anElementDuplicatedInsideItsTableBecomesACopy() throws {
    let (store, reducer, _) = try run([["type": "duplicateInPlace"], ["type": "bumpFirst"]])
    #expect(store.state.items == [["n": 100], ["n": 2], ["n": 3]])
    #expect(try reducer.residentState() == store.state.value)
  }
}
