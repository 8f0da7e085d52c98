import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import Testing

/// `Scope` on a stored property and on an enum case.
@MainActor
struct ScopeTests {
  struct Parent: Reducer {
    struct State: Equatable {
      var ticker = Ticker.State()
      var countSeenByParent: Int?
    }

    enum Action: Equatable, Sendable, CasePathable {
      case ticker(Ticker.Action)
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
      Scope(state: \.ticker, action: \.ticker) { Ticker() }
      Reduce { state, action in
        switch action {
        case .ticker(.increment):
          state.countSeenByParent = state.ticker.count
          return .none
        case .ticker:
          return .none
        case .cancelTimerTapped:
          return .cancel(id: Ticker.CancelID.timer)
        }
      }
    }
  }

  @Test func theChildRunsBeforeTheParent() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.ticker(.increment)) {
      $0.ticker.count = 1
      $0.countSeenByParent = 1
    }
  }

  @Test func childEffectsSendChildActionsThroughTheParent() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.ticker(.startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.ticker(.tick)) { $0.ticker.count = 1 }
    await store.send(.ticker(.stopTimer))
  }

  @Test func otherActionsDoNotReachTheChild() async {
    let store = TestStore(initialState: Parent.State()) {
      Scope(state: \Parent.State.ticker, action: \Parent.Action.Cases.ticker) {
        Reduce<Ticker.State, Ticker.Action> { state, _ in
          state.count += 100
          return .none
        }
      }
    }
    await store.send(.cancelTimerTapped)
  }

  @Test func aParentCancelAlsoCancelsTheChildsEffectWithTheSameID() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.ticker(.startTimer))
    await store.send(.cancelTimerTapped)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  // MARK: - Enum case

  enum Screen: Equatable, CasePathable {
    case ticker(Ticker.State)
    case settings

    struct AllCasePaths {
      var ticker: AnyCasePath<Screen, Ticker.State> {
        AnyCasePath(embed: Screen.ticker) {
          guard case let .ticker(state) = $0 else { return nil }
          return state
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  @Test func anEnumCaseScopeRunsTheChildInThatCase() async {
    let store = TestStore(initialState: Screen.ticker(Ticker.State())) {
      Scope(state: \.ticker, action: \Parent.Action.Cases.ticker) { Ticker() }
    }
    await store.send(.ticker(.increment)) { $0 = .ticker(Ticker.State(count: 1)) }
  }

  @Test func anEnumCaseScopeReportsAChildActionInAnotherCase() async {
    let store = TestStore(initialState: Screen.settings) {
      Scope(state: \.ticker, action: \Parent.Action.Cases.ticker) { Ticker() }
    }
    await withKnownIssue {
      await store.send(.ticker(.increment))
    } matching: { issue in
      issue.description.contains(#"A "Scope" at ComposableTests/ScopeTests.swift:"#)
        && issue.description.contains("received a child action when child state was set to a different case")
        && issue.description.contains("Action:\n    ScopeTests.Parent.Action.ticker(.increment)")
    }
  }
}
