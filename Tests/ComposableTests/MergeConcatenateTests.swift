import Clocks
import Composable
import ComposableTesting
import Testing

/// `Effect.merge` and `Effect.concatenate`, including cancellation inside and around a concatenation.
@MainActor
struct MergeConcatenateTests {
  struct State: Equatable {
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case start
    case stop
    case record(String)
  }

  enum CancelID { case first, all }

  /// A feature whose `.start` returns `start()` and whose `.stop` returns `stop()`.
  func feature(
    start: @escaping () -> Effect<Action>,
    stop: @escaping () -> Effect<Action> = { .none }
  ) -> Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .start: return start()
      case .stop: return stop()
      case let .record(entry):
        state.log.append(entry)
        return .none
      }
    }
  }

  /// An effect that records `entry` after `seconds` on `clock`.
  func record(_ entry: String, after seconds: Int, on clock: TestClock<Duration>) -> Effect<Action> {
    .run { send in
      try await clock.sleep(for: .seconds(seconds))
      await send(.record(entry))
    }
  }

  @Test func mergeRunsItsEffectsAtTheSameTime() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature { .merge(self.record("slow", after: 2, on: clock), self.record("fast", after: 1, on: clock)) }
    }
    await store.send(.start)
    await clock.advance(by: .seconds(1))
    await store.receive(.record("fast")) { $0.log = ["fast"] }
    await clock.advance(by: .seconds(1))
    await store.receive(.record("slow")) { $0.log = ["fast", "slow"] }
  }

  @Test func concatenateStartsEachEffectWhenThePreviousHasFinished() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature {
        .concatenate(
          self.record("first", after: 1, on: clock),
          .run { send in await send(.record("second")) }
        )
      }
    }
    await store.send(.start)
    #expect(store.state.log.isEmpty)
    await clock.advance(by: .seconds(1))
    await store.receive(.record("first")) { $0.log = ["first"] }
    await store.receive(.record("second")) { $0.log = ["first", "second"] }
  }

  @Test func concatenatedWaitsAddUp() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature { .concatenate(self.record("a", after: 1, on: clock), self.record("b", after: 1, on: clock)) }
    }
    await store.send(.start)
    await clock.advance(by: .seconds(1))
    await store.receive(.record("a")) { $0.log = ["a"] }
    #expect(store.state.log == ["a"])
    await clock.advance(by: .seconds(1))
    await store.receive(.record("b")) { $0.log = ["a", "b"] }
  }

  @Test func concatenateContinuesAfterAMemberIsCancelledByItsOwnID() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature {
        .concatenate(
          self.record("never", after: 10, on: clock).cancellable(id: CancelID.first),
          .run { send in await send(.record("second")) }
        )
      } stop: {
        .cancel(id: CancelID.first)
      }
    }
    await store.send(.start)
    await store.send(.stop)
    await store.receive(.record("second")) { $0.log = ["second"] }
    await store.finish()
  }

  @Test func cancellingAConcatenationStopsTheMembersStillToCome() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature {
        .concatenate(self.record("first", after: 1, on: clock), self.record("second", after: 1, on: clock))
          .cancellable(id: CancelID.all)
      } stop: {
        .cancel(id: CancelID.all)
      }
    }
    await store.send(.start)
    await clock.advance(by: .seconds(1))
    await store.receive(.record("first")) { $0.log = ["first"] }
    await store.send(.stop)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func cancellingAConcatenationStopsTheRunningMember() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature {
        .concatenate(self.record("first", after: 1, on: clock), self.record("second", after: 1, on: clock))
          .cancellable(id: CancelID.all)
      } stop: {
        .cancel(id: CancelID.all)
      }
    }
    await store.send(.start)
    await store.send(.stop)
    await clock.advance(by: .seconds(2))
    await store.finish()
  }

  @Test func concatenatedSendsArriveInOrderBeforeLaterWork() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature {
        .concatenate(.send(.record("a")), .send(.record("b")), self.record("c", after: 1, on: clock))
      }
    }
    await store.send(.start)
    await store.receive(.record("a")) { $0.log = ["a"] }
    await store.receive(.record("b")) { $0.log = ["a", "b"] }
    await clock.advance(by: .seconds(1))
    await store.receive(.record("c")) { $0.log = ["a", "b", "c"] }
  }
}
