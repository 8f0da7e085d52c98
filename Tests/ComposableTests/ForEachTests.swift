import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import IdentifiedCollections
import Testing

/// `forEach` over an `IdentifiedArray` with `IdentifiedAction`.
@MainActor
struct ForEachTests {
  struct Parent: Reducer {
    struct State: Equatable {
      var tickers: IdentifiedArrayOf<Ticker.State> = []
      var countSeenByParent: Int?
    }

    enum Action: Equatable, Sendable, CasePathable {
      case tickers(IdentifiedActionOf<Ticker>)
      case remove(id: Int)
      case cancelTimerTapped

      struct AllCasePaths {
        var tickers: AnyCasePath<Action, IdentifiedActionOf<Ticker>> {
          AnyCasePath(embed: Action.tickers) {
            guard case let .tickers(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case let .tickers(.element(id, .increment)):
          state.countSeenByParent = state.tickers[id: id]?.count
          return .none
        case .tickers:
          return .none
        case let .remove(id):
          state.tickers.remove(id: id)
          return .none
        case .cancelTimerTapped:
          return .cancel(id: Ticker.CancelID.timer)
        }
      }
      .forEach(\.tickers, action: \.tickers) { Ticker() }
    }
  }

  func makeStore(ids: [Int], clock: TestClock<Duration> = TestClock()) -> TestStoreOf<Parent> {
    TestStore(initialState: Parent.State(tickers: IdentifiedArray(uniqueElements: ids.map { Ticker.State(id: $0) }))) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func theElementRunsBeforeTheParent() async {
    let store = makeStore(ids: [1, 2])
    await store.send(.tickers(.element(id: 2, action: .increment))) {
      $0.tickers[id: 2]?.count = 1
      $0.countSeenByParent = 1
    }
  }

  @Test func onlyTheAddressedElementChanges() async {
    let store = makeStore(ids: [1, 2, 3])
    await store.send(.tickers(.element(id: 3, action: .increment))) {
      $0.tickers[id: 3]?.count = 1
      $0.countSeenByParent = 1
    }
  }

  @Test func elementEffectsSendActionsForThatElement() async {
    let clock = TestClock()
    let store = makeStore(ids: [1, 2], clock: clock)
    await store.send(.tickers(.element(id: 2, action: .startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.tickers(.element(id: 2, action: .tick))) { $0.tickers[id: 2]?.count = 1 }
    await store.send(.tickers(.element(id: 2, action: .stopTimer)))
  }

  @Test func anActionForAMissingElementIsReported() async {
    let store = makeStore(ids: [1])
    await withKnownIssue {
      await store.send(.tickers(.element(id: 7, action: .increment)))
    } matching: { issue in
      issue.description.contains(#"A "forEach" at ComposableTests/ForEachTests.swift:"#)
        && issue.description.contains("received an action for a missing element")
        && issue.description.contains("Missing id:\n    7")
    }
  }

  @Test func removingAnElementCancelsItsEffectsOnly() async {
    let clock = TestClock()
    let store = makeStore(ids: [1, 2], clock: clock)
    await store.send(.tickers(.element(id: 1, action: .startTimer)))
    await store.send(.tickers(.element(id: 2, action: .startTimer)))
    await store.send(.remove(id: 1)) { $0.tickers.remove(id: 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(.tickers(.element(id: 2, action: .tick))) { $0.tickers[id: 2]?.count = 1 }
    await store.send(.tickers(.element(id: 2, action: .stopTimer)))
    await store.finish()
  }

  @Test func elementsUsingTheSameCancelIDNeverCancelEachOther() async {
    let clock = TestClock()
    let store = makeStore(ids: [1, 2], clock: clock)
    await store.send(.tickers(.element(id: 1, action: .startTimer)))
    await store.send(.tickers(.element(id: 2, action: .startTimer)))
    await store.send(.tickers(.element(id: 1, action: .stopTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.tickers(.element(id: 2, action: .tick))) { $0.tickers[id: 2]?.count = 1 }
    await store.send(.tickers(.element(id: 2, action: .stopTimer)))
  }

  @Test func aParentCancelAlsoCancelsEveryElementsEffectWithTheSameID() async {
    let clock = TestClock()
    let store = makeStore(ids: [1, 2], clock: clock)
    await store.send(.tickers(.element(id: 1, action: .startTimer)))
    await store.send(.tickers(.element(id: 2, action: .startTimer)))
    await store.send(.cancelTimerTapped)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func anElementRemovedAndAddedBackStartsWithoutTheOldEffects() async {
    let clock = TestClock()
    let store = makeStore(ids: [1], clock: clock)
    await store.send(.tickers(.element(id: 1, action: .startTimer)))
    await store.send(.remove(id: 1)) { $0.tickers = [] }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }
}
