import Clocks
import Composable
import ComposableTesting
import Dependencies
import Testing

/// `Effect.throttle(id:for:clock:latest:)` under a `TestClock`: one action per one-second window.
@MainActor
struct ThrottleTests {
  struct Feed: Reducer {
    struct State: Equatable {
      var loaded: [Int] = []
    }

    enum Action: Equatable, Sendable {
      case scrolled(Int)
      case load(Int)
      case stop
    }

    enum CancelID { case load }

    let latest: Bool
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .scrolled(page):
        return .send(.load(page))
          .throttle(id: CancelID.load, for: .seconds(1), clock: clock, latest: latest)
      case let .load(page):
        state.loaded.append(page)
        return .none
      case .stop:
        return .cancel(id: CancelID.load)
      }
    }
  }

  func makeStore(latest: Bool, clock: TestClock<Duration>) -> TestStoreOf<Feed> {
    TestStore(initialState: Feed.State()) {
      Feed(latest: latest)
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test(arguments: [true, false])
  func theFirstActionGoesThroughAtOnce(latest: Bool) async {
    let store = makeStore(latest: latest, clock: TestClock())
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
  }

  @Test func withLatestTheMostRecentActionIsSentWhenTheWindowCloses() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
    await store.send(.scrolled(2))
    await store.send(.scrolled(3))
    await clock.advance(by: .milliseconds(999))
    #expect(store.state.loaded == [1])
    await clock.advance(by: .milliseconds(1))
    await store.receive(.load(3)) { $0.loaded = [1, 3] }
    await store.finish()
  }

  @Test func withoutLatestTheFirstHeldActionIsSentWhenTheWindowCloses() async {
    let clock = TestClock()
    let store = makeStore(latest: false, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
    await store.send(.scrolled(2))
    await store.send(.scrolled(3))
    await clock.advance(by: .seconds(1))
    await store.receive(.load(2)) { $0.loaded = [1, 2] }
    await store.finish()
  }

  @Test func anActionAfterTheWindowGoesThroughAtOnce() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
    await clock.advance(by: .seconds(1))
    await store.send(.scrolled(2))
    await store.receive(.load(2)) { $0.loaded = [1, 2] }
  }

  @Test func sendingAHeldActionStartsANewWindow() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
    await clock.advance(by: .milliseconds(500))
    await store.send(.scrolled(2))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.load(2)) { $0.loaded = [1, 2] }
    await clock.advance(by: .milliseconds(500))
    await store.send(.scrolled(3))
    #expect(store.state.loaded == [1, 2])
    await clock.advance(by: .milliseconds(500))
    await store.receive(.load(3)) { $0.loaded = [1, 2, 3] }
  }

  @Test func cancellingTheIDDropsTheHeldAction() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
    await store.send(.scrolled(2))
    await store.send(.stop)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test(arguments: [true, false])
  func anActionHeldAfterACancellationIsStillSent(latest: Bool) async {
    let clock = TestClock()
    let store = makeStore(latest: latest, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.load(1)) { $0.loaded = [1] }
    await store.send(.scrolled(2))
    await store.send(.stop)
    await clock.advance(by: .milliseconds(500))
    await store.send(.scrolled(3))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.load(3)) { $0.loaded = [1, 3] }
  }
}
