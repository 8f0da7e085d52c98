import Clocks
import Composable
import ComposableTesting
import Dependencies
import Testing

@MainActor
struct CounterTests {
  @Test func incrementAndDecrementChangeTheCount() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.decrementButtonTapped) { $0.count = 0 }
  }

  @Test func factIsLoadedFromTheNumberFactClient() async {
    let store = TestStore(initialState: Counter.State(count: 3)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse) {
      $0.isLoading = false
      $0.fact = "3 is a good number."
    }
  }

  @Test func timerTicksUnderTheTestClockAndStopsWhenToggled() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTick) { $0.count = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTick) { $0.count = 2 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
  }

  @Test func storeSendUpdatesStateSynchronously() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementButtonTapped)
    store.send(.incrementButtonTapped)
    #expect(store.state.count == 2)
  }
}
