import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import Testing

/// `ifCaseLet` on a case of an enum state.
@MainActor
struct IfCaseLetTests {
  struct Parent: Reducer {
    enum State: Equatable, CasePathable {
      case ticking(Ticker.State)
      case finished(count: Int)

      struct AllCasePaths {
        var ticking: AnyCasePath<State, Ticker.State> {
          AnyCasePath(embed: State.ticking) {
            guard case let .ticking(state) = $0 else { return nil }
            return state
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    enum Action: Equatable, Sendable, CasePathable {
      case ticker(Ticker.Action)
      case finishTapped
      case restart(id: Int)

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
          // NB: Finishes with the count the child has just produced, proving the child ran first.
          if case let .ticking(ticker) = state, ticker.count >= 3 {
            state = .finished(count: ticker.count)
          }
          return .none
        case .ticker:
          return .none
        case .finishTapped:
          if case let .ticking(ticker) = state { state = .finished(count: ticker.count) }
          return .none
        case let .restart(id):
          state = .ticking(Ticker.State(id: id))
          return .none
        }
      }
      .ifCaseLet(\.ticking, action: \.ticker) { Ticker() }
    }
  }

  func makeStore(_ state: Parent.State, clock: TestClock<Duration> = TestClock()) -> TestStoreOf<Parent> {
    TestStore(initialState: state) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func theChildRunsBeforeTheParent() async {
    let store = makeStore(.ticking(Ticker.State(count: 2)))
    await store.send(.ticker(.increment)) { $0 = .finished(count: 3) }
  }

  @Test func aChildActionInAnotherCaseIsReported() async {
    let store = makeStore(.finished(count: 0))
    await withKnownIssue {
      await store.send(.ticker(.increment))
    } matching: { issue in
      issue.description.contains(#"An "ifCaseLet" at ComposableTests/IfCaseLetTests.swift:"#)
        && issue.description.contains("received a child action when child state was set to a different case")
    }
  }

  @Test func leavingTheCaseCancelsTheChildsEffects() async {
    let clock = TestClock()
    let store = makeStore(.ticking(Ticker.State()), clock: clock)
    await store.send(.ticker(.startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.ticker(.tick)) { $0 = .ticking(Ticker.State(count: 1)) }
    await store.send(.finishTapped) { $0 = .finished(count: 1) }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func replacingTheCaseWithAChildOfAnotherIDCancelsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(.ticking(Ticker.State(id: 1)), clock: clock)
    await store.send(.ticker(.startTimer))
    await store.send(.restart(id: 2)) { $0 = .ticking(Ticker.State(id: 2)) }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }
}
