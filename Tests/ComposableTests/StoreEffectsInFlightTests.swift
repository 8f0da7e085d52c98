import Clocks
import Composable
import ComposableTesting
import Dependencies
import Testing

private struct Chain: Reducer {
  struct State: Equatable { var steps: [String] = [] }
  enum Action: Equatable, Sendable { case start, middle, done }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.steps.append("\(action)")
    switch action {
    case .start:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.middle)
      }
    case .middle:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.done)
      }
    case .done:
      return .none
    }
  }
}

@MainActor
struct StoreEffectsInFlightTests {
  @Test func effectsInFlightCountsEffectsStartedByEffects() async {
    await withTestStoreExecutor {
      let clock = TestClock()
      let store = Store(initialState: Chain.State()) {
        Chain()
      } withDependencies: {
        $0.continuousClock = clock
      }
      #expect(store.effectsInFlight == 0)
      store.send(.start)
      #expect(store.effectsInFlight == 1)
      await clock.advance(by: .seconds(1))
      await waitUntil { store.state.steps.count == 2 }
      // NB: the first effect may still be returning; the one `.middle` started is running.
      #expect(store.effectsInFlight >= 1)
      await clock.advance(by: .seconds(1))
      await waitUntil { store.effectsInFlight == 0 }
      #expect(store.state.steps == ["start", "middle", "done"])
      #expect(store.effectsInFlight == 0)
    }
  }

  private func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<2_000 where !condition() {
      await Task.yield()
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}
