import CasePathsCore
import Composable
import LuaBridge
@testable import LuaFeatures
import Observation
import Testing

/// A store over a Lua feature observed with Swift's Observation: the transaction's change report
/// says which fields an action wrote, and only their observers are told.
@MainActor
struct LuaStoreObservationTests {
  static let source = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Counter",
      initial = { count = 0, isTimerOn = false, profile = { name = "Ada" }, rows = { "a", "b" } },
      reduce = function(state, action)
        if action.type == "increment" then
          state.count = state.count + 1
        elseif action.type == "toggleTimer" then
          state.isTimerOn = not state.isTimerOn
        elseif action.type == "bounce" then
          state.count = state.count + 1
          state.count = state.count - 1
        elseif action.type == "rename" then
          state.profile.name = action.name
        elseif action.type == "fail" then
          state.count = 99
          error("no")
        end
      end,
    }
    """

  final class Changes: @unchecked Sendable {
    var count = 0
  }

  func track(_ read: @escaping () -> Void) -> Changes {
    let changes = Changes()
    withObservationTracking(read) { changes.count += 1 }
    return changes
  }

  func counter() throws -> (Store<LuaState, LuaValue>, FeatureHarness) {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    return (makeStore(feature.reducer(), state: feature.initialState), harness)
  }

  @Test func anActionThatWritesAnotherFieldDoesNotTellTheObserverOfAField() throws {
    let (store, _) = try counter()
    let count = track { _ = store.count }
    store.send(["type": "toggleTimer"])
    store.send(["type": "rename", "name": "Grace"])
    #expect(count.count == 0)
    store.send(["type": "increment"])
    #expect(count.count == 1)
    #expect(store.count == 1)
  }

  @Test func aFieldTheActionWroteIsReportedFromTheTransactionNotByComparingValues() throws {
    let (store, _) = try counter()
    // NB: The first action pushes the state into Lua: only the next ones have a report to read.
    store.send(["type": "toggleTimer"])
    let count = track { _ = store.count }
    store.send(["type": "bounce"])
    #expect(store.count == 0)
    #expect(count.count == 1, "the report says `count` was written")
  }

  @Test func aFailedActionTellsNoObserver() throws {
    let (store, harness) = try counter()
    let count = track { _ = store.count }
    store.send(["type": "fail"])
    #expect(harness.takeErrors().count == 1)
    #expect(count.count == 0)
  }

  @Test func aNestedWriteTellsTheObserversOfItsTopLevelField() throws {
    let (store, _) = try counter()
    let profile = track { _ = store.profile }
    let rows = track { _ = store.rows }
    store.send(["type": "rename", "name": "Grace"])
    #expect(profile.count == 1)
    #expect(rows.count == 0)
  }

  @Test func theStateSaysWhichFieldsTheLastActionWrote() throws {
    let (store, _) = try counter()
    store.send(["type": "toggleTimer"])
    let before = store.state
    store.send(["type": "bounce"])
    let after = store.state
    #expect(after.changed(\LuaState.[dynamicMember: "count"], since: before) == true,
            "written, though its value is the same again: the report says so, no value is compared")
    #expect(after.changed(\LuaState.[dynamicMember: "isTimerOn"], since: before) == false)
    #expect(after.changed(\LuaState.[dynamicMember: "rows"], since: before) == false)
    #expect(after.changed(\LuaState.self, since: before) == true)
    #expect(after.changed(\LuaState.[dynamicMember: "count"], since: after) == false)
  }

  @Test func aStateTheReportDoesNotCoverIsLeftToComparison() throws {
    let (store, _) = try counter()
    store.send(["type": "increment"])
    let first = store.state
    store.send(["type": "increment"])
    store.send(["type": "increment"])
    let third = store.state
    #expect(third.changed(\LuaState.[dynamicMember: "count"], since: first) == nil, "two actions apart")
    var fromSwift = third
    fromSwift.count = 7
    #expect(fromSwift.changed(\LuaState.[dynamicMember: "count"], since: third) == nil, "set from Swift")
  }

  @Test func aLuaChildScopedFromASwiftParentIsObservedThroughItsStore() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source)
    let store = Store(initialState: Parent.State(counter: feature.initialState)) {
      Parent(child: feature.reducer())
    }
    let child = store.scope(state: \.counter, action: \.counter)
    let count = track { _ = child.count }
    let taps = track { _ = store.taps }
    child.send(["type": "toggleTimer"])
    #expect(count.count == 0)
    #expect(taps.count == 0)
    store.send(.tapped)
    #expect(count.count == 1)
    #expect(taps.count == 1)
    #expect(child.count == 1)
  }

  struct Parent: Reducer {
    struct State: Equatable {
      var counter: LuaState
      var taps = 0
    }

    enum Action: Sendable, CasePathable {
      case counter(LuaValue), tapped

      struct AllCasePaths {
        var counter: AnyCasePath<Action, LuaValue> {
          AnyCasePath(embed: Action.counter) {
            guard case let .counter(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    let child: LuaReducer

    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { child }
      Reduce { state, action in
        guard case .tapped = action else { return .none }
        state.taps += 1
        return .send(.counter(["type": "increment"]))
      }
    }
  }

  struct Counter: Codable, Equatable, Sendable {
    var count: Int
    var isTimerOn: Bool
  }

  enum CounterAction: Codable, Sendable {
    case increment, toggleTimer
  }

  @Test func aTypedFeaturesFieldIsObservedAsAnInt() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load("""
      local lunar = require "lunar"
      return lunar.feature {
        name = "Counter",
        initial = { count = 0, isTimerOn = false },
        reduce = function(state, action)
          if action.type == "increment" then state.count = state.count + 1
          elseif action.type == "toggleTimer" then state.isTimerOn = not state.isTimerOn end
        end,
      }
      """)
    let initial = try feature.initialState(as: Counter.self)
    let store = Store(initialState: initial) {
      feature.typedReducer(of: Counter.self, CounterAction.self)
    }
    var seen: [Int] = []
    let count = track { seen.append(store.count) }
    store.send(.toggleTimer)
    #expect(count.count == 0)
    store.send(.increment)
    #expect(count.count == 1)
    #expect(seen == [0])
    #expect(store.count == 1)
    #expect(harness.takeErrors().isEmpty)
  }
}
