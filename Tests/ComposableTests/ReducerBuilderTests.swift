import Composable
import ComposableTesting
import ConcurrencyExtras
import Testing

/// Reducers listed in a body, `CombineReducers`, `EmptyReducer`, conditional reducers, `_printChanges`.
@MainActor
struct ReducerBuilderTests {
  struct State: Equatable {
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case go
    case record(String)
  }

  func recorder(_ name: String) -> Reduce<State, Action> {
    Reduce { state, action in
      guard case .go = action else { return .none }
      state.log.append(name)
      return .send(.record(name))
    }
  }

  @Test func listedReducersRunInOrderAndTheirEffectsAreMerged() async {
    let store = TestStore(initialState: State()) {
      recorder("first")
      recorder("second")
      recorder("third")
    }
    await store.send(.go) { $0.log = ["first", "second", "third"] }
    await store.receive(.record("first"))
    await store.receive(.record("second"))
    await store.receive(.record("third"))
  }

  @Test func combineReducersGroupsReducersUnderOneModifier() async {
    let store = TestStore(initialState: State()) {
      CombineReducers {
        recorder("a")
        EmptyReducer()
        recorder("b")
      }
      .onChange(of: \.log.count) { _, count in
        Reduce { state, _ in
          state.log.append("count \(count)")
          return .none
        }
      }
    }
    await store.send(.go) { $0.log = ["a", "b", "count 2"] }
    await store.receive(.record("a"))
    await store.receive(.record("b"))
  }

  @Test(arguments: [true, false])
  func conditionalReducersFollowTheBranchChosenWhenBuilt(isPremium: Bool) async {
    let store = TestStore(initialState: State()) {
      if isPremium {
        recorder("premium")
      } else {
        recorder("basic")
      }
    }
    let name = isPremium ? "premium" : "basic"
    await store.send(.go) { $0.log = [name] }
    await store.receive(.record(name))
  }

  @Test func anOptionalReducerRunsOnlyWhenPresent() async {
    let includeExtra = false
    let store = TestStore(initialState: State()) {
      recorder("always")
      if includeExtra {
        recorder("extra")
      }
    }
    await store.send(.go) { $0.log = ["always"] }
    await store.receive(.record("always"))
  }

  @Test func printChangesReportsTheActionAndTheStateBeforeAndAfter() async {
    let printed = LockIsolated<[String]>([])
    let store = TestStore(initialState: State()) {
      recorder("first")
        ._printChanges(
          _ReducerPrinter { action, oldState, newState in
            printed.withValue { $0.append("\(action): \(oldState.log) → \(newState.log)") }
          }
        )
    }
    await store.send(.go) { $0.log = ["first"] }
    await store.receive(.record("first"))
    #expect(printed.value == [#"go: [] → ["first"]"#, #"record("first"): ["first"] → ["first"]"#])
  }
}
