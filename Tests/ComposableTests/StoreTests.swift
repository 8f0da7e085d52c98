import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import ConcurrencyExtras
import Testing

/// `Store`: synchronous sends, queued re-entrant actions, scoping, observation and teardown.
@MainActor
struct StoreTests {
  struct Steps: Reducer {
    struct State: Equatable {
      var log: [String] = []
    }

    enum Action: Equatable, Sendable {
      case merged, concatenated, record(String), chained(Int)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .merged:
        state.log.append("merged")
        return .merge(.send(.chained(2)), .send(.record("after chain start")))
      case .concatenated:
        state.log.append("concatenated")
        return .concatenate(.send(.record("one")), .send(.record("two")))
      case let .record(entry):
        state.log.append(entry)
        return .none
      case let .chained(remaining):
        state.log.append("chained \(remaining)")
        return remaining > 0 ? .send(.chained(remaining - 1)) : .none
      }
    }
  }

  @Test func sendUpdatesStateBeforeItReturns() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementButtonTapped)
    #expect(store.count == 1)
    store.send(.incrementButtonTapped)
    #expect(store.state.count == 2)
  }

  @Test func actionsSentByEffectsWhileReducingAreQueuedInOrder() {
    let store = Store(initialState: Steps.State()) { Steps() }
    store.send(.merged)
    #expect(
      store.log == ["merged", "chained 2", "after chain start", "chained 1", "chained 0"]
    )
  }

  @Test func concatenatedSendsAreReducedBeforeSendReturns() {
    let store = Store(initialState: Steps.State()) { Steps() }
    store.send(.concatenated)
    #expect(store.log == ["concatenated", "one", "two"])
  }

  @Test func anObserverSeesEveryProcessedSendAndMaySendItself() {
    let store = Store(initialState: Counter.State()) { Counter() }
    var seen: [Int] = []
    let observation = store.observe {
      seen.append(store.count)
      if store.count == 1 { store.send(.incrementButtonTapped) }
    }
    store.send(.incrementButtonTapped)
    #expect(seen == [1, 2])
    #expect(store.count == 2)
    observation.cancel()
    store.send(.incrementButtonTapped)
    #expect(seen == [1, 2])
  }

  @Test func aReleasedObservationStopsObserving() {
    let store = Store(initialState: Counter.State()) { Counter() }
    var calls = 0
    var observation: StoreObservation? = store.observe { calls += 1 }
    store.send(.incrementButtonTapped)
    _ = observation
    observation = nil
    store.send(.incrementButtonTapped)
    #expect(calls == 1)
  }

  @Test func statesYieldsTheCurrentStateThenEachChange() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    var states = store.states.makeAsyncIterator()
    #expect(await states.next()?.count == 0)
    store.send(.incrementButtonTapped)
    #expect(await states.next()?.count == 1)
    store.send(.decrementButtonTapped)
    #expect(await states.next()?.count == 0)
  }

  @Test func effectsFeedTheirActionsBackIntoTheStore() async {
    await withTestStoreExecutor {
      let clock = TestClock()
      let store = Store(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = clock
      }
      store.send(.toggleTimerButtonTapped)
      await clock.advance(by: .seconds(2))
      #expect(store.count == 2)
      store.send(.toggleTimerButtonTapped)
    }
  }

  @Test func storeTaskFinishWaitsForTheEffects() async {
    let store = Store(initialState: Counter.State(count: 7)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is lucky" }
    }
    await store.send(.factButtonTapped).finish()
    #expect(store.fact == "7 is lucky")
    #expect(store.isLoading == false)
  }

  @Test func storeTaskCancelStopsTheEffects() async {
    await withTestStoreExecutor {
      let clock = TestClock()
      let store = Store(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = clock
      }
      let task = store.send(.toggleTimerButtonTapped)
      await clock.advance(by: .seconds(1))
      #expect(store.count == 1)
      task.cancel()
      await task.finish()
      #expect(task.isCancelled)
      await clock.advance(by: .seconds(3))
      #expect(store.count == 1)
    }
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let clock = TestClock()
    var store: StoreOf<Counter>? = Store(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store?.send(.toggleTimerButtonTapped)
    store = nil
    await Task.megaYield()
    #expect(task?.isCancelled == true)
  }

  // MARK: - Scoping

  struct App: Reducer {
    struct State: Equatable {
      var counter = Counter.State()
      var counterChanges = 0
    }

    enum Action: Equatable, Sendable, CasePathable {
      case counter(Counter.Action)

      struct AllCasePaths {
        var counter: AnyCasePath<Action, Counter.Action> {
          AnyCasePath(embed: Action.counter) {
            guard case let .counter(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { Counter() }
      Reduce { state, _ in
        state.counterChanges += 1
        return .none
      }
    }
  }

  @Test func aScopedStoreSendsThroughTheParentAndReadsItsState() {
    let store = Store(initialState: App.State()) { App() }
    let counterStore = store.scope(state: \.counter, action: \.counter)
    counterStore.send(.incrementButtonTapped)
    #expect(counterStore.count == 1)
    #expect(store.counter.count == 1)
    #expect(store.counterChanges == 1)
  }

  @Test func aScopedStoreShowsChangesMadeThroughTheParent() {
    let store = Store(initialState: App.State()) { App() }
    let counterStore = store.scope(state: \.counter, action: \.counter)
    store.send(.counter(.incrementButtonTapped))
    store.send(.counter(.incrementButtonTapped))
    #expect(counterStore.state.count == 2)
  }

  @Test func aScopedStoreKeepsTheParentFeatureAlive() {
    var counterStore: StoreOf<Counter>?
    do {
      let store = Store(initialState: App.State()) { App() }
      counterStore = store.scope(state: \.counter, action: \.counter)
    }
    counterStore?.send(.incrementButtonTapped)
    #expect(counterStore?.count == 1)
  }

  @Test func observingAScopedStoreObservesTheParent() {
    let store = Store(initialState: App.State()) { App() }
    let counterStore = store.scope(state: \.counter, action: \.counter)
    var counts: [Int] = []
    let observation = counterStore.observe { counts.append(counterStore.count) }
    store.send(.counter(.incrementButtonTapped))
    counterStore.send(.incrementButtonTapped)
    #expect(counts == [1, 2])
    observation.cancel()
  }
}
