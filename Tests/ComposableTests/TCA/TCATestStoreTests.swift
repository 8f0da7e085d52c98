import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import Dependencies
import Foundation
import Testing

/// The test store's semantics, ported from TCA's `TestStoreTests`.
@MainActor
struct TCATestStoreTests {
  @Test func concatenatedSendsAreReceivedInOrderAfterTheEffectThatSentThem() async {
    enum Action: Equatable, Sendable { case a, b1, b2, b3, c1, c2, c3, d }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { _, action in
        switch action {
        case .a:
          return .merge(
            .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.b1)
              await send(.c1)
            },
            .run { _ in try await Task.never() }.cancellable(id: 1)
          )
        case .b1: return .concatenate(.send(.b2), .send(.b3))
        case .c1: return .concatenate(.send(.c2), .send(.c3))
        case .b2, .b3, .c2, .c3: return .none
        case .d: return .cancel(id: 1)
        }
      }
    }
    await store.send(.a)
    await clock.advance(by: .seconds(1))
    await store.receive(.b1)
    await store.receive(.b2)
    await store.receive(.b3)
    await store.receive(.c1)
    await store.receive(.c2)
    await store.receive(.c3)
    await store.send(.d)
  }

  @Test func anAsyncEffectsActionIsReceived() async {
    enum Action: Equatable, Sendable { case tap, response(Int) }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .tap: return .run { send in await send(.response(42)) }
        case let .response(number):
          state = number
          return .none
        }
      }
    }
    await store.send(.tap)
    await store.receive(.response(42)) { $0 = 42 }
  }

  @Test func wrongExpectationsOnSendAndReceiveFail() async {
    struct State: Equatable {
      var count = 0
      var isChanging = false
    }
    enum Action: Equatable, Sendable { case increment, changed(from: Int, to: Int) }
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case .increment:
          state.isChanging = true
          return .send(.changed(from: state.count, to: state.count + 1))
        case let .changed(from, to):
          state.isChanging = false
          if state.count == from { state.count = to }
          return .none
        }
      }
    }
    await store.send(.increment) { $0.isChanging = true }
    await store.receive(.changed(from: 0, to: 1)) {
      $0.isChanging = false
      $0.count = 1
    }
    await withKnownIssue {
      await store.send(.increment) { $0.isChanging = false }
    }
    await withKnownIssue {
      await store.receive(.changed(from: 1, to: 2)) {
        $0.isChanging = true
        $0.count = 1100
      }
    }
  }

  @Test func aClosureThatChangesNothingFailsOnSendAndReceive() async {
    enum Action: Equatable, Sendable { case noop, finished }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { _, action in action == .noop ? .send(.finished) : .none }
    }
    await store.send(.noop)
    await store.receive(.finished)
    await withKnownIssue {
      await store.send(.noop) { $0 = 0 }
    } matching: { $0.description.contains("Expected state to change, but no change occurred") }
    await withKnownIssue {
      await store.receive(.finished) { $0 = 0 }
    } matching: { $0.description.contains("Expected state to change, but no change occurred") }
  }

  @Test func receiveByPredicateCallsThePredicateAndFailsOnAMismatch() async {
    enum Action: Equatable, Sendable { case noop, finished }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { _, action in action == .noop ? .send(.finished) : .none }
    }
    var predicateCalls = 0
    await store.send(.noop)
    await store.receive { action in
      predicateCalls += 1
      return action == .finished
    }
    #expect(predicateCalls > 0)

    await store.send(.noop)
    await withKnownIssue {
      await store.receive(.noop)
    }
    await store.send(.noop)
    await withKnownIssue {
      await store.receive { $0 == .noop }
    }
  }

  @Test func stateIsTheStateAsOfTheLastAssertionAndTheStateBeforeTheActionInsideOne() async {
    enum Action: Equatable, Sendable { case a, b, c, d }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { count, action in
        count += 1
        return action == .a ? .merge(.send(.b), .send(.c), .send(.d)) : .none
      }
    }
    await store.send(.a) {
      $0 = 1
      #expect(store.state == 0)
    }
    #expect(store.state == 1)
    await store.receive(.b) {
      $0 = 2
      #expect(store.state == 1)
    }
    #expect(store.state == 2)
    await store.receive(.c) {
      $0 = 3
      #expect(store.state == 2)
    }
    #expect(store.state == 3)
    await store.receive(.d) {
      $0 = 4
      #expect(store.state == 3)
    }
    #expect(store.state == 4)
  }

  @Test func dependenciesChangedMidTestReachLaterActions() async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Void> { state, _ in
        @Dependency(\.date.now) var now
        state = Int(now.timeIntervalSince1970)
        return .none
      }
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
    }
    await store.send(()) { $0 = 1_234_567_890 }
    store.dependencies.date.now = Date(timeIntervalSince1970: 987_654_321)
    await store.send(()) { $0 = 987_654_321 }
  }

  @Test func assertionClosuresSeeTheStoresDependencies() async {
    struct State: Equatable {
      var count = 0
      var date: Date
      init() {
        @Dependency(\.date.now) var now
        self.date = now
      }
    }
    enum Action: Equatable, Sendable { case tap, response(Int) }
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case .tap:
          state.count += 1
          return .run { send in await send(.response(42)) }
        case let .response(number):
          @Dependency(\.date.now) var now
          state.count = number
          state.date = now
          return .none
        }
      }
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 1_234_567_890))
    }
    await store.send(.tap) {
      @Dependency(\.date.now) var now
      $0.count = 1
      $0.date = now
    }
    await store.receive(.response(42)) {
      @Dependency(\.date.now) var now
      $0.count = 42
      $0.date = now
    }
  }

  @Test func prepareDependenciesRunsOnce() {
    var count = 0
    let store = TestStore(initialState: 0) {
      EmptyReducer<Int, Void>()
    } withDependencies: { _ in
      count += 1
    }
    #expect(count == 1)
    _ = store
  }

  @Test func anEffectSkippedInFlightStillSendsAndIsReceived() async {
    enum Action: Equatable, Sendable { case tap, response }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .tap:
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(.response)
          }
        case .response:
          state = 42
          return .none
        }
      }
    }
    await store.send(.tap)
    await store.skipInFlightEffects()
    await clock.advance(by: .seconds(1))
    await store.receive(.response) { $0 = 42 }
  }

  @Test func assertOnANonExhaustiveStorePassesWhenTheStateMatches() async {
    let store = TestStore(initialState: 0) { EmptyReducer<Int, Void>() }
    store.exhaustivity = .off
    store.assert { $0 = 0 }
  }

  @Test func assertOnANonExhaustiveStoreFailsWithADiff() async {
    let store = TestStore(initialState: 0) { EmptyReducer<Int, Void>() }
    store.exhaustivity = .off
    withKnownIssue {
      store.assert { $0 = 1 }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("− 1") && issue.description.contains("+ 0")
    }
  }

  @Test func receiveByCaseKeyPathAndValue() async {
    let store = TestStore(initialState: 0) { Delegating() }
    await store.send(.tap)
    await store.receive(\.delegate.success, 42)
    await store.send(.tap)
    await withKnownIssue {
      await store.receive(\.delegate.success, 43)
    } matching: { issue in
      issue.description.contains("Received unexpected action")
        && issue.description.contains("− 43") && issue.description.contains("+ 42")
    }
  }

  @Test func sendByCaseKeyPathWithAndWithoutAValue() async {
    let store = TestStore(initialState: 0) { Delegating() }
    await store.send(\.tap)
    await store.receive(\.delegate.success, 42)
    await store.send(\.view.tap) { $0 = 1 }
    await store.receive(\.delegate.success, 42 * 42)
    await store.send(\.view.delete, [0])
    await store.receive(\.delegate.success, 0)
    await store.send(\.view.delete, [19, 23]) { $0 = 2 }
    await store.receive(\.delegate.success, 42)
  }

  @Test func dismissingTheRootFeatureCancelsItsEffects() async {
    let store = TestStore(initialState: 0) { SelfDismissing() }
    await store.send(.onTask)
    await store.send(.dismiss)
    #expect(store.isDismissed)
  }

  @Test func aDismissedTestStoreRefusesSends() async {
    let store = TestStore(initialState: 0) { SelfDismissing() }
    await store.send(.dismiss)
    await withKnownIssue {
      await store.send(.onTask)
    } matching: { $0.description.contains("Can't send action to dismissed test store.") }
  }
}

/// A feature that answers with delegate actions, for case key path sends and receives.
private struct Delegating: Reducer {
  enum Action: Equatable, Sendable, CasePathable {
    case tap
    case delegate(Delegate)
    case view(View)

    enum Delegate: Equatable, Sendable, CasePathable {
      case success(Int)
      struct AllCasePaths { var success: AnyCasePath<Delegate, Int> { casePath(Delegate.success) } }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }
    enum View: Equatable, Sendable, CasePathable {
      case tap
      case delete(Set<Int>)
      struct AllCasePaths {
        var tap: AnyCasePath<View, Void> { casePath(View.tap) }
        var delete: AnyCasePath<View, Set<Int>> { casePath(View.delete) }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }
    struct AllCasePaths {
      var tap: AnyCasePath<Action, Void> { casePath(Action.tap) }
      var delegate: AnyCasePath<Action, Delegate> { casePath(Action.delegate) }
      var view: AnyCasePath<Action, View> { casePath(Action.view) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      return .send(.delegate(.success(42)))
    case .delegate:
      return .none
    case .view(.tap):
      state += 1
      return .send(.delegate(.success(42 * 42)))
    case let .view(.delete(indices)):
      let sum = indices.reduce(0, +)
      if sum == 42 { state += 1 }
      return .send(.delegate(.success(sum)))
    }
  }
}

/// A root feature that dismisses itself, with a long-living effect.
private struct SelfDismissing: Reducer {
  enum Action: Equatable, Sendable { case dismiss, onTask }
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .dismiss: return .run { [dismiss] _ in await dismiss() }
    case .onTask: return .run { _ in try await Task.never() }
    }
  }
}
