import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import Dependencies
import IdentifiedCollections
import Testing

/// Reducer operators, ported from TCA's `IfLetReducerTests`, `ForEachReducerTests`,
/// `OnChangeReducerTests`, `ReducerBuilderTests`, `DependencyKeyWritingReducerTests` and
/// `IfCaseLetReducerTests`.
@MainActor
struct TCAReducerTests {
  // MARK: - ifLet

  @Test func aGrandchildsEffectsAreCancelledWhenItsParentGoesAway() async {
    let clock = TestClock()
    let store = TestStore(initialState: Family.State()) { Family() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.start) { $0.child = Family.Middle.State(grandchild: Ticker.State()) }
    await store.send(.child(.grandchild(.startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.grandchild(.tick))) { $0.child?.grandchild?.count = 1 }
    await store.send(.exit) { $0.child = nil }
  }

  @Test func anOptionalAlertIsDismissedAfterItsAction() async {
    let store = TestStore(initialState: Alerting.State()) { Alerting() }
    await store.send(.show) { $0.alert = Alerting.alert }
    await store.send(.alert(.confirm)) {
      $0.alert = nil
      $0.confirmed = true
    }
  }

  // MARK: - forEach

  @Test func anElementActionRunsTheElement() async {
    let store = TestStore(initialState: Rows.State(rows: [Ticker.State(id: 1), Ticker.State(id: 2)])) { Rows() }
    await store.send(.rows(.element(id: 1, action: .increment))) { $0.rows[id: 1]?.count = 1 }
  }

  @Test func anActionForNoElementLeavesTheRowsAlone() async {
    let store = TestStore(initialState: Rows.State(rows: [Ticker.State(id: 1)])) { Rows() }
    await store.send(.removeAll) { $0.rows = [] }
  }

  @Test func anActionForAMissingElementIsReported() async {
    let store = TestStore(initialState: Rows.State()) { Rows() }
    await withKnownIssue {
      await store.send(.rows(.element(id: 1, action: .increment)))
    } matching: { $0.description.contains("received an action for a missing element") }
  }

  @Test func removingElementsCancelsTheirEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Rows.State(rows: [Ticker.State(id: 1)])) { Rows() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.rows(.element(id: 1, action: .startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.count = 1 }
    await store.send(.removeAll) { $0.rows = [] }
    await clock.advance(by: .seconds(1))
  }

  // MARK: - onChange

  @Test func onChangeRunsWhenTheValueChangedAndMaySend() async {
    let store = TestStore(initialState: Shouting.State()) { Shouting() }
    await store.send(.increment) {
      $0.count = 1
      $0.description = "!"
    }
    await store.send(.increment) {
      $0.count = 2
      $0.description = "!!"
    }
    await store.receive(.decrement) {
      $0.count = 1
      $0.description = "!"
    }
  }

  @Test func onChangeWithRemoveDuplicatesIgnoresWhatCountsAsTheSame() async {
    let store = TestStore(initialState: Rows.State(rows: [Ticker.State(id: 1)])) {
      Rows()
        .onChange(of: \.rows, removeDuplicates: { $0.ids == $1.ids }) { _, _ in
          Reduce { state, _ in
            state.changes += 1
            return .none
          }
        }
    }
    await store.send(.rows(.element(id: 1, action: .increment))) { $0.rows[id: 1]?.count = 1 }
    await store.send(.add(2)) {
      $0.rows.append(Ticker.State(id: 2))
      $0.changes = 1
    }
  }

  @Test func onChangeOfATupleWithRemoveDuplicates() async {
    let store = TestStore(initialState: Sum.State()) { Sum() }
    await store.send(.increment) {
      $0.a = 1
      $0.b = 1
    }
    await store.receive(.updateSum(2)) { $0.sum = 2 }
    await store.send(.noop)
  }

  // MARK: - Builder

  @Test func aBuilderRunsOneReducerPerElementOfAForLoop() async {
    let store = TestStore(initialState: 0) {
      CombineReducers {
        for step in [1, 10, 100] {
          Reduce<Int, Void> { state, _ in
            state += step
            return .none
          }
        }
      }
    }
    await store.send(()) { $0 = 111 }
  }

  @Test func aBuilderIncludesOptionalAndEitherReducers() async {
    func feature(logging: Bool, double: Bool) -> some Reducer<Int, Void> {
      CombineReducers {
        Reduce<Int, Void> { state, _ in
          state += 1
          return .none
        }
        if logging {
          Reduce<Int, Void> { state, _ in
            state += 10
            return .none
          }
        }
        if double {
          Reduce<Int, Void> { state, _ in
            state *= 2
            return .none
          }
        } else {
          EmptyReducer<Int, Void>()
        }
      }
    }
    let plain = TestStore(initialState: 0) { feature(logging: false, double: false) }
    await plain.send(()) { $0 = 1 }
    let both = TestStore(initialState: 0) { feature(logging: true, double: true) }
    await both.send(()) { $0 = 22 }
  }

  @Test func existentialReducersCompose() async {
    let reducers: [any Reducer<Int, Void>] = [
      Reduce { state, _ in
        state += 1
        return .none
      },
      EmptyReducer(),
    ]
    let store = TestStore(initialState: 0) {
      for reducer in reducers { Reduce(reducer) }
    }
    await store.send(()) { $0 = 1 }
  }

  // MARK: - Dependencies

  @Test func overridesOfTheSameReducerFuseIntoOne() {
    let written: _DependencyKeyWritingReducer<Recorder> = Recorder()
      .dependency(\.recorded, 42).dependency(\.recorded, 1729).dependency(\.recorded, 1)
    let transformed: _DependencyKeyWritingReducer<Recorder> = Recorder()
      .transformDependency(\.recorded) { $0 = 42 }.transformDependency(\.recorded) { $0 = 1729 }
    _ = (written, transformed)
  }

  @Test func theInnermostOverrideWins() async {
    let fused = TestStore(initialState: 0) { Recorder().dependency(\.recorded, 42).dependency(\.recorded, 1729) }
    await fused.send(.tap) { $0 = 42 }
    let transformed = TestStore(initialState: 0) {
      Recorder().transformDependency(\.recorded) { $0 = 42 }.transformDependency(\.recorded) { $0 = 1729 }
    }
    await transformed.send(.tap) { $0 = 42 }
    let nested = TestStore(initialState: 0) {
      CombineReducers { Recorder().dependency(\.recorded, 42) }.dependency(\.recorded, 1729)
    }
    await nested.send(.tap) { $0 = 42 }
  }

  @Test func anOverrideReachesTheEffectsOfTheEffectsActions() async {
    let store = TestStore(initialState: 0) { Recorder().dependency(\.recorded, 42) }
    await store.send(.start) { $0 = 1 }
    await store.receive(.response(42)) { $0 = 42 }
    await store.receive(.otherResponse(42))
  }

  // MARK: - ifCaseLet

  @Test func leavingACaseCancelsTheEffectsOfItsChild() async {
    let clock = TestClock()
    let store = TestStore(initialState: Switcher.State.first(Ticker.State())) { Switcher() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.first(.startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.first(.tick)) { $0 = .first(Ticker.State(count: 1)) }
    await store.send(.showSecond) { $0 = .second(Ticker.State()) }
    await clock.advance(by: .seconds(1))
  }

  @Test func replacingACasesChildWithOneOfAnotherIdentityCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Switcher.State.first(Ticker.State(id: 1))) { Switcher() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.first(.startTimer))
    await store.send(.showFirst(id: 2)) { $0 = .first(Ticker.State(id: 2)) }
    await clock.advance(by: .seconds(1))
  }
}
