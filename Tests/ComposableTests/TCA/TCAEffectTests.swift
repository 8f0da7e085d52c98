import Clocks
import Composable
import ComposableTesting
import ConcurrencyExtras
import Dependencies
import Foundation
import Testing

/// Running, composing and cancelling effects, ported from TCA's `EffectRunTests`, `EffectTests`,
/// `EffectCancellationTests` and `TaskCancellationTests`.
@MainActor
struct TCAEffectTests {
  enum Action: Equatable, Sendable { case tapped, response, responseB, value(Int) }
  enum CancelID { case response }

  func store(_ reduce: @escaping (inout [Int], Action) -> Effect<Action>) -> TestStore<[Int], Action> {
    TestStore(initialState: []) {
      Reduce { state, action in
        if case let .value(value) = action { state.append(value) }
        return reduce(&state, action)
      }
    }
  }

  // MARK: - Run

  @Test func runSendsItsActions() async {
    let store = store { _, action in action == .tapped ? .run { send in await send(.response) } : .none }
    await store.send(.tapped)
    await store.receive(.response)
  }

  @Test func runsCatchHandlerSendsOnFailure() async {
    struct Failure: Error {}
    let store = store { _, action in
      guard action == .tapped else { return .none }
      return .run { _ in throw Failure() } catch: { _, send in await send(.response) }
    }
    await store.send(.tapped)
    await store.receive(.response)
  }

  @Test func anUnhandledErrorIsReported() async {
    struct Failure: Error {}
    let store = store { _, action in action == .tapped ? .run { _ in throw Failure() } : .none }
    await withKnownIssue {
      await store.send(.tapped).finish(timeout: .seconds(5))
    } matching: { issue in
      issue.description.contains("threw an unhandled error") && issue.description.contains("Failure()")
    }
  }

  @Test func anEffectCancellingItselfByIDSendsNothing() async {
    let store = store { _, action in
      guard action == .tapped else { return .none }
      return .run { send in
        Task.cancel(id: CancelID.response)
        try Task.checkCancellation()
        await send(.response)
      }
      .cancellable(id: CancelID.response)
    }
    await store.send(.tapped).finish()
  }

  @Test func anEffectCancelledByIDDoesNotRunItsCatchHandler() async {
    let store = store { _, action in
      guard action == .tapped else { return .none }
      return .run { send in
        Task.cancel(id: CancelID.response)
        try Task.checkCancellation()
        await send(.response)
      } catch: { _, send in
        await send(.responseB)
      }
      .cancellable(id: CancelID.response)
    }
    await store.send(.tapped).finish()
  }

  @Test func sendingFromACompletedEffectIsReported() async throws {
    let clock = TestClock()
    try await withTestStoreExecutor {
      let store = Store(initialState: 0) {
        Reduce<Int, Action> { _, action in
          guard action == .tapped else { return .none }
          return .run { send in
            Task {
              try await clock.sleep(for: .seconds(1))
              await send(.response)
            }
          }
        }
      }
      try await withKnownIssue {
        await store.send(.tapped).finish()
        await clock.advance(by: .seconds(1))
        try await Task.sleep(for: .milliseconds(50))
      } matching: { issue in
        issue.description.contains("An action was sent from a completed effect")
          && issue.description.contains("TCAEffectTests.Action.response")
          && issue.description.contains("TCAEffectTests.Action.tapped")
      }
    }
  }

  // MARK: - Composition

  @Test func concatenatedEffectsRunOneAfterTheOther() async {
    let clock = TestClock()
    let store = store { _, action in
      guard action == .tapped else { return .none }
      return .concatenate(
        .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.value(1))
        },
        .run { send in
          try await clock.sleep(for: .seconds(2))
          await send(.value(2))
        },
        .run { send in
          try await clock.sleep(for: .seconds(3))
          await send(.value(3))
        }
      )
    }
    await store.send(.tapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.value(1)) { $0 = [1] }
    await clock.advance(by: .seconds(2))
    await store.receive(.value(2)) { $0 = [1, 2] }
    await clock.advance(by: .seconds(3))
    await store.receive(.value(3)) { $0 = [1, 2, 3] }
  }

  @Test func mergedEffectsRunAtOnce() async {
    let clock = TestClock()
    let store = store { _, action in
      guard action == .tapped else { return .none }
      return .merge(
        (1...3).map { value in
          .run { send in
            try await clock.sleep(for: .seconds(value))
            await send(.value(value))
          }
        }
      )
    }
    await store.send(.tapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.value(1)) { $0 = [1] }
    await clock.advance(by: .seconds(1))
    await store.receive(.value(2)) { $0 = [1, 2] }
    await clock.advance(by: .seconds(1))
    await store.receive(.value(3)) { $0 = [1, 2, 3] }
  }

  @Test func cancelInFlightTwiceOnOneEffectStillSends() async {
    let store = store { _, action in
      guard action == .tapped else { return .none }
      return Effect.send(.value(42))
        .cancellable(id: "id", cancelInFlight: true)
        .cancellable(id: "id", cancelInFlight: true)
    }
    await store.send(.tapped)
    await store.receive(.value(42)) { $0 = [42] }
  }

  @Test func mappedEffectsKeepTheDependenciesOfTheirReducer() async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .tapped:
          @Dependency(\.date) var date
          return .run { send in await send(.value(Int(date.now.timeIntervalSinceReferenceDate))) }
            .map { $0 }
        case let .value(value):
          state = value
          return .none
        default:
          return .none
        }
      }
      .dependency(\.date, .constant(Date(timeIntervalSinceReferenceDate: 1_234_567_890)))
    }
    await store.send(.tapped).finish(timeout: .seconds(1))
    await store.receive(.value(1_234_567_890)) { $0 = 1_234_567_890 }
  }

  // MARK: - Cancellation

  @Test func cancellingByIDStopsAStreamOfActions() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let store = store { _, action in
      switch action {
      case .tapped:
        return .run { send in for await value in stream { await send(.value(value)) } }
          .cancellable(id: CancelID.response)
      case .response:
        return .cancel(id: CancelID.response)
      default:
        return .none
      }
    }
    await store.send(.tapped)
    continuation.yield(1)
    await store.receive(.value(1)) { $0 = [1] }
    continuation.yield(2)
    await store.receive(.value(2)) { $0 = [1, 2] }
    await store.send(.response)
    continuation.yield(3)
    await store.finish()
    #expect(store.state == [1, 2])
  }

  @Test func anEffectMadeCancellableTwiceIsCancelledByTheID() async {
    let clock = TestClock()
    let store = store { _, action in
      switch action {
      case .tapped:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.value(1))
        }
        .cancellable(id: CancelID.response)
        .cancellable(id: CancelID.response)
      case .response:
        return .cancel(id: CancelID.response)
      default:
        return .none
      }
    }
    await store.send(.tapped)
    await store.send(.response)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func cancellingAfterAnEffectCompletedDoesNothing() async {
    let store = store { _, action in
      switch action {
      case .tapped: return .run { send in await send(.value(1)) }.cancellable(id: CancelID.response)
      case .response: return .cancel(id: CancelID.response)
      default: return .none
      }
    }
    await store.send(.tapped)
    await store.receive(.value(1)) { $0 = [1] }
    await store.send(.response)
  }

  @Test func effectsSharingAnIDRunSideBySide() async {
    let clock = TestClock()
    let store = store { _, action in
      guard action == .tapped else { return .none }
      return .merge(
        .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.value(1))
        }
        .cancellable(id: "id"),
        .run { send in
          try await clock.sleep(for: .seconds(2))
          await send(.value(2))
        }
        .cancellable(id: "id")
      )
    }
    await store.send(.tapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.value(1)) { $0 = [1] }
    await clock.advance(by: .seconds(1))
    await store.receive(.value(2)) { $0 = [1, 2] }
  }

  @Test func nestedCancellableMergesStillSendEverything() async {
    let store = store { _, action in
      guard action == .tapped else { return .none }
      return Effect.merge(Effect.merge(.send(.value(1)), .send(.value(2))).cancellable(id: 1))
        .cancellable(id: 2)
    }
    await store.send(.tapped)
    await store.receive(.value(1)) { $0 = [1] }
    await store.receive(.value(2)) { $0 = [1, 2] }
  }

  // MARK: - Task cancellation

  @Test func withTaskCancellationIsCancelledByTaskCancelOutsideAStore() async {
    enum ID { case task }
    let (started, continuation) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      try await withTaskCancellation(id: ID.task) {
        continuation.yield()
        continuation.finish()
        try await Task.never()
      }
    }
    for await _ in started {}
    Task.cancel(id: ID.task)
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func withTaskCancellationInsideAnEffectIsCancelledByTheReducersCancel() async {
    let store = store { _, action in
      switch action {
      case .tapped:
        return .run { send in
          try await withTaskCancellation(id: CancelID.response) { try await Task.never() }
          await send(.value(1))
        }
      case .response:
        return .cancel(id: CancelID.response)
      default:
        return .none
      }
    }
    await store.send(.tapped)
    await store.send(.response)
    await store.finish()
  }

  @Test func withTaskCancellationCancelInFlightKeepsOnlyTheLatest() async {
    let clock = TestClock()
    let store = store { _, action in
      guard case .tapped = action else { return .none }
      return .run { [count = 1] send in
        try await withTaskCancellation(id: CancelID.response, cancelInFlight: true) {
          try await clock.sleep(for: .seconds(1))
          await send(.value(count))
        }
      }
    }
    await store.send(.tapped)
    await store.send(.tapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.value(1)) { $0 = [1] }
    await store.finish()
  }
}
