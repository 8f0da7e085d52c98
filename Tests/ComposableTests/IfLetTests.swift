import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import Testing

/// `ifLet` on an optional child state.
@MainActor
struct IfLetTests {
  struct Parent: Reducer {
    struct State: Equatable {
      var ticker: Ticker.State?
      var countSeenByParent: Int?
    }

    enum Action: Equatable, Sendable, CasePathable {
      case ticker(Ticker.Action)
      case show(id: Int)
      case dismiss
      case cancelTimerTapped

      struct AllCasePaths {
        var ticker: AnyCasePath<Action, Ticker.Action> {
          AnyCasePath(embed: Action.ticker) {
            guard case let .ticker(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .ticker(.increment):
          state.countSeenByParent = state.ticker?.count
          return .none
        case .ticker:
          return .none
        case let .show(id):
          state.ticker = Ticker.State(id: id)
          return .none
        case .dismiss:
          state.ticker = nil
          return .none
        case .cancelTimerTapped:
          return .cancel(id: Ticker.CancelID.timer)
        }
      }
      .ifLet(\.ticker, action: \.ticker) { Ticker() }
    }
  }

  func makeStore(_ state: Parent.State = Parent.State(), clock: TestClock<Duration> = TestClock())
    -> TestStoreOf<Parent>
  {
    TestStore(initialState: state) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func theChildRunsBeforeTheParent() async {
    let store = makeStore(Parent.State(ticker: Ticker.State()))
    await store.send(.ticker(.increment)) {
      $0.ticker?.count = 1
      $0.countSeenByParent = 1
    }
  }

  @Test func aChildActionWhileTheChildIsNilIsReported() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.ticker(.increment))
    } matching: { issue in
      issue.description.contains(#"An "ifLet" at ComposableTests/IfLetTests.swift:"#)
        && issue.description.contains(#"received a child action when child state was "nil""#)
        && issue.description.contains("Action:\n    IfLetTests.Parent.Action.ticker(.increment)")
    }
  }

  @Test func settingTheChildToNilCancelsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.show(id: 1)) { $0.ticker = Ticker.State(id: 1) }
    await store.send(.ticker(.startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.ticker(.tick)) { $0.ticker?.count = 1 }
    await store.send(.dismiss) { $0.ticker = nil }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func replacingTheChildWithOneOfAnotherIDCancelsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.show(id: 1)) { $0.ticker = Ticker.State(id: 1) }
    await store.send(.ticker(.startTimer))
    await store.send(.show(id: 2)) { $0.ticker = Ticker.State(id: 2) }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func showingTheSameChildAgainKeepsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.show(id: 1)) { $0.ticker = Ticker.State(id: 1) }
    await store.send(.ticker(.startTimer))
    await store.send(.show(id: 1))
    await clock.advance(by: .seconds(1))
    await store.receive(.ticker(.tick)) { $0.ticker?.count = 1 }
    await store.send(.ticker(.stopTimer))
  }

  @Test func aParentCancelAlsoCancelsTheChildsEffectWithTheSameID() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.show(id: 1)) { $0.ticker = Ticker.State(id: 1) }
    await store.send(.ticker(.startTimer))
    await store.send(.cancelTimerTapped)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }
}
