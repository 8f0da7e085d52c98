import Clocks
import Composable
import ComposableTesting
import Dependencies
import Testing

/// `Effect.debounce(id:for:clock:)` under a `TestClock`.
@MainActor
struct DebounceTests {
  struct Search: Reducer {
    struct State: Equatable {
      var query = ""
      var searched: [String] = []
    }

    enum Action: Equatable, Sendable {
      case queryChanged(String)
      case search(String)
      case cancelTapped
    }

    enum CancelID { case search }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .queryChanged(query):
        state.query = query
        return .send(.search(query))
          .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      case let .search(query):
        state.searched.append(query)
        return .none
      case .cancelTapped:
        return .cancel(id: CancelID.search)
      }
    }
  }

  func makeStore(clock: TestClock<Duration>) -> TestStoreOf<Search> {
    TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func debouncedActionArrivesOnceTheDurationHasPassed() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(299))
    #expect(store.state.searched.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.search("a")) { $0.searched = ["a"] }
  }

  @Test func aNewEffectWithTheSameIDRestartsTheWait() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("ab")) { $0.query = "ab" }
    await clock.advance(by: .milliseconds(200))
    #expect(store.state.searched.isEmpty)
    await clock.advance(by: .milliseconds(100))
    await store.receive(.search("ab")) { $0.searched = ["ab"] }
  }

  @Test func effectsFarEnoughApartAllRun() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.search("a")) { $0.searched = ["a"] }
    await store.send(.queryChanged("ab")) { $0.query = "ab" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.search("ab")) { $0.searched = ["a", "ab"] }
  }

  @Test func aDebouncedEffectCanBeCancelledByItsID() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await store.send(.cancelTapped)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func debouncingNoneDoesNothing() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Reduce<Search.State, Search.Action> { _, _ in
        Effect.none.debounce(id: Search.CancelID.search, for: .seconds(1), clock: clock)
      }
    }
    let task = await store.send(.cancelTapped)
    #expect(task.isCancelled)
  }
}
