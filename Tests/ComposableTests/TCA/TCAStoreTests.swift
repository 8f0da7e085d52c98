import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import ConcurrencyExtras
import Dependencies
import Foundation
import Testing

/// The store's effects and dependencies, ported from TCA's `StoreTests`.
@MainActor
struct TCAStoreTests {
  @Test func cancellingASendsTaskCancelsEffectsOfTheActionsItsEffectsSent() async {
    enum Action: Equatable, Sendable { case task, response, response1, response2 }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { _, action in
        switch action {
        case .task:
          return .run { send in await send(.response) }
        case .response:
          return .merge(.run { _ in try await Task.never() }, .run { send in await send(.response1) })
        case .response1:
          return .merge(.run { _ in try await Task.never() }, .run { send in await send(.response2) })
        case .response2:
          return .run { _ in try await Task.never() }
        }
      }
    }
    let task = await store.send(.task)
    await store.receive(.response)
    await store.receive(.response1)
    await store.receive(.response2)
    await task.cancel()
  }

  @Test func cancellingATaskWithOnlyANeverEndingEffectEndsIt() async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Void> { _, _ in .run { _ in try await Task.never() } }
    }
    await store.send(()).cancel()
  }

  @Test func aStoreSendsTaskFinishesAfterEffectsOfActionsItsEffectsSent() async {
    await withTestStoreExecutor {
      let clock = TestClock()
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { state, action in
          state = action
          guard action < 3 else { return .none }
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(action + 1)
          }
        }
      }
      let task = store.send(0)
      let finished = LockIsolated(false)
      let waiter = Task {
        await task.finish()
        finished.setValue(true)
      }
      await clock.advance(by: .seconds(1))
      await clock.advance(by: .seconds(1))
      #expect(store.withState { $0 } == 2)
      #expect(!finished.value)
      await clock.advance(by: .seconds(1))
      await waiter.value
      #expect(store.withState { $0 } == 3)
    }
  }

  @Test func cancellingAScopedStoresTaskCancelsTheEffect() async throws {
    try await withTestStoreExecutor {
      let store = Store(initialState: Parent.State()) { Parent() }
      let child = store.scope(state: \.child, action: \.child)
      let task = child.send(.start)
      #expect(store.effectsInFlight == 1)
      task.cancel()
      await task.finish()
      for _ in 0..<100 where store.effectsInFlight > 0 { try await Task.sleep(for: .milliseconds(1)) }
      #expect(store.effectsInFlight == 0)
    }
  }

  @Test func aStoreKeepsTheDependenciesInEffectWhereItWasCreated() {
    let store = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      Store<UUID, Void>(initialState: UUID()) {
        Reduce { state, _ in
          @Dependency(\.uuid) var uuid
          state = uuid()
          return .none
        }
      }
    }
    store.send(())
    #expect(store.withState { $0 } == UUID(0))
    store.send(())
    #expect(store.withState { $0 } == UUID(1))
  }

  @Test func initialStateIsBuiltWithTheStoresDependencies() {
    struct State: Equatable {
      var date: Date
      init() {
        @Dependency(\.date) var date
        self.date = date()
      }
    }
    let store = Store(initialState: State()) {
      EmptyReducer<State, Never>()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 1_234_567_890))
    }
    #expect(store.withState(\.date) == Date(timeIntervalSinceReferenceDate: 1_234_567_890))
  }

  @Test func theReducerIsBuiltWithTheStoresDependencies() {
    struct Feature: Reducer {
      let date: Date
      func reduce(into state: inout Date?, action: Void) -> Effect<Void> {
        state = date
        return .none
      }
    }
    @Dependency(\.date) var date
    let store = Store(initialState: nil) {
      Feature(date: date())
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 1_234_567_890))
    }
    store.send(())
    #expect(store.withState { $0 } == Date(timeIntervalSinceReferenceDate: 1_234_567_890))
  }

  @Test func dependenciesChangedForAnEffectReachTheEffectsOfTheActionsItSends() async {
    let testStore = TestStore(initialState: 0) { Relay() }
    await testStore.send(.tap)
    await testStore.receive(.response1(1)) { $0 = 1 }
    await testStore.receive(.response2(1))
    await testStore.receive(.response3(1))

    await withTestStoreExecutor {
      let store = Store(initialState: 0) { Relay() }
      await store.send(.tap).finish()
      #expect(store.withState { $0 } == testStore.state)
    }
  }

  @Test func cancellationIDsOfTwoStoresNeverMeet() async {
    await withTestStoreExecutor {
      let clock = TestClock()
      let store1 = Store(initialState: 0) { Cancellable() } withDependencies: { $0.continuousClock = clock }
      let store2 = Store(initialState: 0) { Cancellable() } withDependencies: { $0.continuousClock = clock }
      let task1 = store1.send(.tap)
      let task2 = store2.send(.tap)
      store2.send(.cancelButtonTapped)
      await clock.advance(by: .seconds(1))
      await task1.finish()
      await task2.finish()
      #expect(store1.withState { $0 } == 42)
      #expect(store2.withState { $0 } == 0)
    }
  }

  @Test func cancellationIDsOfTwoTestStoresNeverMeet() async {
    let clock = TestClock()
    let store1 = TestStore(initialState: 0) { Cancellable() } withDependencies: { $0.continuousClock = clock }
    let store2 = TestStore(initialState: 0) { Cancellable() } withDependencies: { $0.continuousClock = clock }
    await store1.send(.tap)
    await store2.send(.tap)
    await store2.send(.cancelButtonTapped)
    await clock.advance(by: .seconds(1))
    await store1.receive(\.response) { $0 = 42 }
  }

  @Test func actionsFromALongLivingEffectAreReceivedAsTheyCome() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    enum Action: Equatable, Sendable { case incrementTapped, start, doIncrement }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .incrementTapped:
          continuation.yield()
          return .none
        case .start:
          return .run { send in
            for await _ in stream { await send(.doIncrement) }
          }
        case .doIncrement:
          state += 1
          return .none
        }
      }
    }
    await store.send(.start)
    await store.send(.incrementTapped)
    await store.receive(.doIncrement) { $0 = 1 }
    await store.send(.incrementTapped)
    await store.receive(.doIncrement) { $0 = 2 }
    continuation.finish()
    await store.finish()
  }

  @Test func anOptionalScopeIsNilWithoutAChildAndFollowsItWhilePresent() {
    let store = Store(initialState: Presenter.State()) { Presenter() }
    #expect(store.scope(state: \.child, action: \.child.presented) == nil)
    store.send(.present)
    let child = store.scope(state: \.child, action: \.child.presented)
    #expect(child?.withState(\.count) == 0)
    child?.send(.increment)
    #expect(child?.withState(\.count) == 1)
    #expect(store.withState(\.child?.count) == 1)
    store.send(.child(.dismiss))
    // NB: A dismissed child's store shows its last state.
    #expect(child?.withState(\.count) == 1)
  }
}

private struct Parent: Reducer {
  struct State: Equatable { var child = 0 }
  enum Action: Equatable, Sendable, CasePathable {
    case child(ChildAction)
    enum ChildAction: Equatable, Sendable { case start }
    struct AllCasePaths { var child: AnyCasePath<Action, ChildAction> { casePath(Action.child) } }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in try await Task.never() }
  }
}

/// Each step changes a dependency for the effect it starts, which sends the next step.
private struct Relay: Reducer {
  enum Action: Equatable, Sendable { case tap, response1(Int), response2(Int), response3(Int) }
  @Dependency(\.relayCount) var count

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    func next(_ action: @escaping @Sendable (Int) -> Action) -> Effect<Action> {
      withDependencies { $0.relayCount += 1 } operation: {
        .run { send in
          @Dependency(\.relayCount) var count
          await send(action(count))
        }
      }
    }
    switch action {
    case .tap: return next(Action.response1)
    case let .response1(count):
      state = count
      return next(Action.response2)
    case let .response2(count):
      state = count
      return next(Action.response3)
    case let .response3(count):
      state = count
      return .none
    }
  }
}

private enum RelayCountKey: DependencyKey {
  static let liveValue = 0
  static let testValue = 0
}

extension DependencyValues {
  fileprivate var relayCount: Int {
    get { self[RelayCountKey.self] }
    set { self[RelayCountKey.self] = newValue }
  }
}

private struct Cancellable: Reducer {
  enum Action: Equatable, Sendable, CasePathable {
    case cancelButtonTapped, response(Int), tap
    struct AllCasePaths { var response: AnyCasePath<Action, Int> { casePath(Action.response) } }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  enum CancelID { case effect }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .cancelButtonTapped:
      return .cancel(id: CancelID.effect)
    case let .response(value):
      state = value
      return .none
    case .tap:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.response(42))
      }
      .cancellable(id: CancelID.effect)
    }
  }
}

private struct Presenter: Reducer {
  struct State: Equatable { @PresentationState var child: Child.State? }
  enum Action: Equatable, Sendable, CasePathable {
    case child(PresentationAction<Child.Action>)
    case present
    struct AllCasePaths {
      var child: AnyCasePath<Action, PresentationAction<Child.Action>> { casePath(Action.child) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  struct Child: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable, Sendable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .present = action { state.child = Child.State() }
      return .none
    }
    .ifLet(\.$child, action: \.child) { Child() }
  }
}
