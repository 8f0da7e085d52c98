import Clocks
import Composable
import ComposableTesting
import Testing

/// `cancellable(id:cancelInFlight:)`, `cancel(id:)` and cancelling the effects of one `send`.
@MainActor
struct CancellationTests {
  struct State: Equatable {
    var results: [String] = []
  }

  enum Action: Equatable, Sendable {
    case search(String)
    case cancelSearch
    case result(String)
  }

  enum CancelID { case search }

  /// A search that answers after one second on `clock`.
  func search(clock: TestClock<Duration>, cancelInFlight: Bool = true) -> Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case let .search(query):
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.result(query))
        }
        .cancellable(id: CancelID.search, cancelInFlight: cancelInFlight)
      case .cancelSearch:
        return .cancel(id: CancelID.search)
      case let .result(result):
        state.results.append(result)
        return .none
      }
    }
  }

  @Test func cancelStopsTheEffectRunningUnderTheID() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { search(clock: clock) }
    await store.send(.search("a"))
    await store.send(.cancelSearch)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func cancelInFlightCancelsThePreviousEffectWithTheSameID() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { search(clock: clock) }
    await store.send(.search("a"))
    await clock.advance(by: .milliseconds(500))
    await store.send(.search("ab"))
    await clock.advance(by: .milliseconds(500))
    #expect(store.state.results.isEmpty)
    await clock.advance(by: .milliseconds(500))
    await store.receive(.result("ab")) { $0.results = ["ab"] }
  }

  @Test func withoutCancelInFlightEffectsWithTheSameIDRunSideBySide() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { search(clock: clock, cancelInFlight: false) }
    await store.send(.search("a"))
    await clock.advance(by: .milliseconds(500))
    await store.send(.search("ab"))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.result("a")) { $0.results = ["a"] }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.result("ab")) { $0.results = ["a", "ab"] }
  }

  @Test func cancelStopsEveryEffectRunningUnderTheID() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { search(clock: clock, cancelInFlight: false) }
    await store.send(.search("a"))
    await store.send(.search("b"))
    await store.send(.cancelSearch)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func actionsSentAfterCancellationAreDropped() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case .search:
          return .run { send in
            // NB: The sleep's cancellation error is swallowed, so the effect goes on to send.
            try? await clock.sleep(for: .seconds(1))
            await send(.result("after cancellation"))
          }
          .cancellable(id: CancelID.search)
        case .cancelSearch:
          return .cancel(id: CancelID.search)
        case let .result(result):
          state.results.append(result)
          return .none
        }
      }
    }
    await store.send(.search("a"))
    await store.send(.cancelSearch)
    await store.finish()
    #expect(store.state.results.isEmpty)
  }

  @Test func cancellingAnIDWithNothingRunningDoesNothing() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { search(clock: clock) }
    await store.send(.cancelSearch)
    await store.send(.search("a"))
    await clock.advance(by: .seconds(1))
    await store.receive(.result("a")) { $0.results = ["a"] }
  }

  @Test func anIDCanBeReusedAfterCancellation() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { search(clock: clock) }
    await store.send(.search("a"))
    await store.send(.cancelSearch)
    await store.send(.search("b"))
    await clock.advance(by: .seconds(1))
    await store.receive(.result("b")) { $0.results = ["b"] }
  }

  @Test func cancellingTheTaskOfASendStopsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { search(clock: clock) }
    let task = await store.send(.search("a"))
    await task.cancel()
    #expect(task.isCancelled)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func idsAreComparedByValue() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case let .search(query):
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(.result(query))
          }
          .cancellable(id: "search-\(query.count)")
        case .cancelSearch:
          return .cancel(id: "search-1")
        case let .result(result):
          state.results.append(result)
          return .none
        }
      }
    }
    await store.send(.search("a"))
    await store.send(.search("ab"))
    await store.send(.cancelSearch)
    await clock.advance(by: .seconds(1))
    await store.receive(.result("ab")) { $0.results = ["ab"] }
  }
}
