import Composable
import ComposableTesting
import Testing

/// `onChange(of:)`: an extra reducer that runs when a value derived from state changes.
@MainActor
struct OnChangeTests {
  struct State: Equatable {
    var query = ""
    var other = 0
    var changes: [String] = []
  }

  enum Action: Equatable, Sendable {
    case queryChanged(String)
    case otherChanged(Int)
    case searched(String)
  }

  func feature() -> some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case let .queryChanged(query):
        state.query = query
        return .none
      case let .otherChanged(value):
        state.other = value
        return .none
      case .searched:
        return .none
      }
    }
    .onChange(of: \.query) { oldValue, newValue in
      Reduce<State, Action> { state, _ in
        state.changes.append("\(oldValue) → \(newValue) (state: \(state.query))")
        return .send(.searched(newValue))
      }
    }
  }

  @Test func theReducerRunsWithTheOldAndNewValuesAfterTheBase() async {
    let store = TestStore(initialState: State()) { feature() }
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.changes = [" → a (state: a)"]
    }
    await store.receive(.searched("a"))
  }

  @Test func itDoesNotRunWhenTheValueIsUnchanged() async {
    let store = TestStore(initialState: State(query: "a")) { feature() }
    await store.send(.queryChanged("a"))
    await store.send(.otherChanged(1)) { $0.other = 1 }
  }

  @Test func itRunsOncePerChangingAction() async {
    let store = TestStore(initialState: State()) { feature() }
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.changes = [" → a (state: a)"]
    }
    await store.receive(.searched("a"))
    await store.send(.queryChanged("ab")) {
      $0.query = "ab"
      $0.changes.append("a → ab (state: ab)")
    }
    await store.receive(.searched("ab"))
  }
}
