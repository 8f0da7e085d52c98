import Clocks
import Composable
import ComposableTesting
import Testing

/// `Effect.none`, `.send`, `.run` (with and without `catch`) and `.map`.
@MainActor
struct EffectRunTests {
  struct State: Equatable {
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case start
    case record(String)
  }

  struct Boom: Error {}

  /// A feature whose `.start` returns `effect`, and whose `.record` appends to the log.
  func feature(_ effect: @escaping () -> Effect<Action>) -> Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        return effect()
      case let .record(entry):
        state.log.append(entry)
        return .none
      }
    }
  }

  @Test func noneStartsNothing() async {
    let store = TestStore(initialState: State()) { feature { .none } }
    let task = await store.send(.start)
    #expect(task.isCancelled)
    await store.finish()
  }

  @Test func sendFeedsTheActionBackIntoTheStore() async {
    let store = TestStore(initialState: State()) { feature { .send(.record("sent")) } }
    await store.send(.start)
    await store.receive(.record("sent")) { $0.log = ["sent"] }
  }

  @Test func runSendsActionsBackInOrder() async {
    let store = TestStore(initialState: State()) {
      feature {
        .run { send in
          await send(.record("one"))
          await send(.record("two"))
          await send(.record("three"))
        }
      }
    }
    await store.send(.start)
    await store.receive(.record("one")) { $0.log = ["one"] }
    await store.receive(.record("two")) { $0.log = ["one", "two"] }
    await store.receive(.record("three")) { $0.log = ["one", "two", "three"] }
  }

  @Test func runWorksAcrossSuspensionsOnTheTestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature {
        .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.record("woke"))
        }
      }
    }
    await store.send(.start)
    await clock.advance(by: .milliseconds(999))
    #expect(store.state.log.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.record("woke")) { $0.log = ["woke"] }
  }

  @Test func unhandledErrorInRunIsReportedWithWhereTheEffectWasCreated() async {
    let store = TestStore(initialState: State()) {
      feature { .run { _ in throw Boom() } }
    }
    await withKnownIssue {
      await store.send(.start)
      await store.finish()
    } matching: { issue in
      issue.description.contains("An 'Effect.run' created at ComposableTests/EffectRunTests.swift:")
        && issue.description.contains("threw an unhandled error")
        && issue.description.contains("Boom")
    }
  }

  @Test func catchHandlerReceivesTheErrorAndCanSendActions() async {
    let store = TestStore(initialState: State()) {
      feature {
        .run { send in
          await send(.record("before"))
          throw Boom()
        } catch: { error, send in
          await send(.record("caught \(error is Boom ? "Boom" : "something else")"))
        }
      }
    }
    await store.send(.start)
    await store.receive(.record("before")) { $0.log = ["before"] }
    await store.receive(.record("caught Boom")) { $0.log = ["before", "caught Boom"] }
  }

  @Test func cancellationErrorIsNotReported() async {
    let store = TestStore(initialState: State()) {
      feature { .run { _ in throw CancellationError() } }
    }
    await store.send(.start)
    await store.finish()
  }

  @Test func errorThrownAfterCancellationIsNotReported() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      feature {
        .run { _ in
          try? await clock.sleep(for: .seconds(1))
          throw Boom()
        }
      }
    }
    let task = await store.send(.start)
    await task.cancel()
    await store.finish()
  }

  @Test func mapTransformsTheActionsOfARun() async {
    let store = TestStore(initialState: State()) {
      feature {
        Effect<String>.run { send in
          await send("a")
          await send("b")
        }
        .map { Action.record($0.uppercased()) }
      }
    }
    await store.send(.start)
    await store.receive(.record("A")) { $0.log = ["A"] }
    await store.receive(.record("B")) { $0.log = ["A", "B"] }
  }

  @Test func mapTransformsSendMergeAndConcatenate() async {
    let store = TestStore(initialState: State()) {
      feature {
        Effect<Int>.concatenate(
          .merge(.send(1), .send(2)),
          .run { send in await send(3) }
        )
        .map { Action.record("\($0)") }
      }
    }
    await store.send(.start)
    await store.receive(.record("1")) { $0.log = ["1"] }
    await store.receive(.record("2")) { $0.log = ["1", "2"] }
    await store.receive(.record("3")) { $0.log = ["1", "2", "3"] }
  }

  @Test func mappedEffectIsCancelledByItsID() async {
    enum CancelID { case work }
    let clock = TestClock()
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case .start:
          return Effect<String>.run { send in
            try await clock.sleep(for: .seconds(1))
            await send("late")
          }
          .cancellable(id: CancelID.work)
          .map(Action.record)
        case .record("stop"):
          return .cancel(id: CancelID.work)
        case let .record(entry):
          state.log.append(entry)
          return .none
        }
      }
    }
    await store.send(.start)
    await store.send(.record("stop"))
    await clock.advance(by: .seconds(1))
    await store.finish()
  }
}
