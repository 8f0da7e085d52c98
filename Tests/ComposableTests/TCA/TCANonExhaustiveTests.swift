import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import Testing

/// Skipping and non-exhaustive test stores, ported from TCA's `TestStoreNonExhaustiveTests`.
@MainActor
struct TCANonExhaustiveTests {
  /// `true` adds one and sends `false`, which adds one.
  func twoSteps() -> Reduce<Int, Bool> {
    Reduce { state, action in
      state += 1
      return action ? .send(false) : .none
    }
  }

  @Test(arguments: [Exhaustivity.on, .off, .off(showSkippedAssertions: true)])
  func skippingReceivedActionsMovesTheStateOn(exhaustivity: Exhaustivity) async {
    let store = TestStore(initialState: 0) { twoSteps() }
    store.exhaustivity = exhaustivity
    await store.send(true) { $0 = 1 }
    #expect(store.state == 1)
    await store.skipReceivedActions(strict: false)
    #expect(store.state == 2)
  }

  @Test func skippingWhenNothingWasReceivedFailsWhenStrict() async {
    let store = TestStore(initialState: 0) { twoSteps() }
    await store.send(true) { $0 = 1 }
    await store.receive(false) { $0 = 2 }
    await withKnownIssue {
      await store.skipReceivedActions(strict: true)
    } matching: { $0.description.contains("There were no received actions to skip.") }
  }

  @Test(arguments: [Exhaustivity.on, .off, .off(showSkippedAssertions: true)])
  func skippingInFlightEffectsEndsTheTestWithoutThem(exhaustivity: Exhaustivity) async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Bool> { _, _ in .run { _ in try await Task.never() } }
    }
    store.exhaustivity = exhaustivity
    await store.send(true)
    await store.skipInFlightEffects(strict: false)
  }

  @Test func skippingInFlightEffectsWhenNoneRunFailsWhenStrict() async {
    let store = TestStore(initialState: 0) { Reduce<Int, Bool> { _, _ in .run { _ in } } }
    let task = await store.send(true)
    await task.finish(timeout: .seconds(5))
    await withKnownIssue {
      await store.skipInFlightEffects(strict: true)
    } matching: { $0.description.contains("There were no in-flight effects to skip.") }
  }

  @Test(arguments: [Exhaustivity.off, .off(showSkippedAssertions: true)])
  func aNonExhaustiveStoreNeedsNoReceiveNorFinish(exhaustivity: Exhaustivity) async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Bool> { _, action in
        action ? .merge(.send(false), .run { _ in try await Task.never() }) : .none
      }
    }
    store.exhaustivity = exhaustivity
    await store.send(true)
  }

  @Test(arguments: [Exhaustivity.off, .off(showSkippedAssertions: true)])
  func aNonExhaustiveSendChecksOnlyWhatItAsserts(exhaustivity: Exhaustivity) async {
    let store = TestStore(initialState: EvenCounter.State()) { EvenCounter() }
    store.exhaustivity = exhaustivity
    await store.send(.increment) { $0.count = 1 }
    await store.send(.increment) { $0.isEven = true }
    await store.send(.increment) {
      $0.count = 3
      $0.isEven = false
    }
  }

  @Test func aNonExhaustiveSendStillFailsAWrongAssertion() async {
    let store = TestStore(initialState: EvenCounter.State()) { EvenCounter() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await withKnownIssue {
      await store.send(.increment) { $0.count = 0 }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("−   count: 0") && issue.description.contains("+   count: 1")
    }
  }

  @Test func aNonExhaustiveSendSkipsUnreceivedActions() async {
    struct State: Equatable {
      var count = 0
      var isLoggedIn = false
    }
    enum Action: Equatable, Sendable { case decrement, increment, loggedInResponse(Bool) }
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case .decrement:
          state.count -= 1
          return .none
        case .increment:
          state.count += 1
          return .send(.loggedInResponse(true))
        case let .loggedInResponse(response):
          state.isLoggedIn = response
          return .none
        }
      }
    }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.increment) { $0.count = 1 }
    await store.send(.decrement) { $0.count = 0 }
    #expect(store.state.isLoggedIn)
  }

  @Test func aNonExhaustiveReceiveStillFailsAWrongAssertion() async {
    struct State: Equatable {
      var count = 0
      var isLoggedIn = false
    }
    enum Action: Equatable, Sendable { case increment, loggedInResponse(Bool) }
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case .increment:
          state.count += 1
          return .send(.loggedInResponse(true))
        case let .loggedInResponse(response):
          state.isLoggedIn = response
          return .none
        }
      }
    }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.increment) { $0.count = 1 }
    await withKnownIssue {
      await store.receive(.loggedInResponse(true)) {
        $0.count = 2
        $0.isLoggedIn = true
      }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("−   count: 2") && issue.description.contains("+   count: 1")
    }
  }

  @Test func manySendsCanBeAssertedAtTheLast() async {
    let store = TestStore(initialState: EvenCounter.State()) { EvenCounter() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.increment)
    #expect(store.state == EvenCounter.State(count: 1, isEven: false))
    await store.send(.increment)
    #expect(store.state == EvenCounter.State(count: 2, isEven: true))
    await store.send(.increment) { $0.count = 3 }
    #expect(store.state == EvenCounter.State(count: 3, isEven: false))
  }

  @Test func aNonExhaustiveReceiveChecksOnlyWhatItAsserts() async {
    let store = TestStore(initialState: TwoResponses.State()) { TwoResponses() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.onAppear)
    #expect(store.state == TwoResponses.State(count: 0, int: 0, string: ""))
    await store.receive(.response1(42)) { $0.int = 42 }
    #expect(store.state == TwoResponses.State(count: 1, int: 42, string: ""))
    await store.receive(.response2("Hello")) { $0.string = "Hello" }
    #expect(store.state == TwoResponses.State(count: 2, int: 42, string: "Hello"))
  }

  @Test func aNonExhaustiveReceiveSkipsEarlierActions() async {
    let store = TestStore(initialState: TwoResponses.State()) { TwoResponses() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.onAppear)
    await store.receive(.response2("Hello")) {
      $0.count = 2
      $0.string = "Hello"
    }
    #expect(store.state == TwoResponses.State(count: 2, int: 42, string: "Hello"))
  }

  @Test func sendingAgainWithUnreceivedActionsSkipsThem() async {
    enum Action: Equatable, Sendable { case tap, response(Int) }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .tap:
          state += 1
          return .run { [state] send in await send(.response(state + 42)) }
        case let .response(number):
          state = number
          return .none
        }
      }
    }
    store.exhaustivity = .off
    await store.send(.tap)
    #expect(store.state == 1)
    await store.send(.tap)
    #expect(store.state == 44)
    await store.skipReceivedActions()
    #expect(store.state == 86)
  }

  @Test func partialAssertionsAcrossTimeAndSkippedEffects() async {
    enum Action: Equatable, Sendable { case buttonTapped, response(Int) }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .buttonTapped:
          state += 1
          return .run { send in
            await send(.response(42))
            try await clock.sleep(for: .seconds(1))
            await send(.response(1729))
          }
        case let .response(number):
          state = number
          return .none
        }
      }
    }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.buttonTapped)
    await clock.advance(by: .milliseconds(500))
    await store.send(.buttonTapped) { $0 = 43 }
    await clock.advance(by: .milliseconds(500))
    await store.skipInFlightEffects()
    await store.skipReceivedActions()
  }

  @Test(arguments: [Exhaustivity.on, .off, .off(showSkippedAssertions: true)])
  func receiveByCaseKeyPath(exhaustivity: Exhaustivity) async {
    let store = TestStore(initialState: TwoResponses.State()) { TwoResponses() }
    store.exhaustivity = exhaustivity
    await store.send(.onAppear)
    await store.receive(\.response1) {
      $0.count = 1
      $0.int = 42
    }
    await store.receive(\.response2) {
      $0.count = 2
      $0.string = "Hello"
    }
  }

  @Test func receiveByCaseKeyPathOrPredicateNeedsNoEquatableAction() async {
    struct NonEquatable: Sendable {}
    enum Action: Sendable, CasePathable {
      case tap
      case response(NonEquatable)
      struct AllCasePaths { var response: AnyCasePath<Action, NonEquatable> { casePath(Action.response) } }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { _, action in
        if case .tap = action { return .send(.response(NonEquatable())) }
        return .none
      }
    }
    await store.send(.tap)
    await store.receive(\.response)
    await store.send(.tap)
    await store.receive { if case .response = $0 { true } else { false } }
  }

  @Test func aNonExhaustiveCaseKeyPathReceiveSkipsEarlierActions() async {
    let store = TestStore(initialState: TwoResponses.State()) { TwoResponses() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.onAppear)
    await store.receive(\.response2) { $0.string = "Hello" }
  }

  @Test func aNonExhaustiveReceiveOfACaseThatNeverCameFails() async {
    let store = TestStore(initialState: TwoResponses.State()) { TwoResponses() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.onAppear)
    await store.receive(\.response2)
    await withKnownIssue {
      await store.receive(\.response2)
    } matching: { $0.description.contains(#"Expected to receive an action of case \.response2, but received none."#) }
  }

  @Test func aNonExhaustiveReceiveWaitsPastNonMatchingActions() async {
    enum Action: Equatable, Sendable { case tap, response1, response2 }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { _, action in
        guard action == .tap else { return .none }
        return .run { send in
          try await clock.sleep(for: .milliseconds(10))
          await send(.response1)
          try await clock.sleep(for: .milliseconds(10))
          await send(.response2)
        }
      }
    }
    store.exhaustivity = .off
    await store.send(.tap)
    await clock.advance(by: .milliseconds(10))
    let task = Task { await clock.advance(by: .milliseconds(10)) }
    await store.receive(.response2)
    await task.value
  }

  @Test func aClosureThatChangesNothingIsFineWhenShowingSkippedAssertions() async {
    let store = TestStore(initialState: 0) { Reduce<Int, Void> { _, _ in .none } }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(()) { $0 = 0 }
    store.assert { $0 = 0 }
  }

  @Test func onlyTheAssertedFieldsOfASendAreChecked() async {
    let store = TestStore(initialState: Identity.State()) { Identity() }
    store.exhaustivity = .off
    await store.send(.changeIdentity(name: "Marek", surname: "Ignored")) { $0.name = "Marek" }
    await store.send(.changeIdentity(name: "Adam", surname: "Stern"))
    await store.send(.changeIdentity(name: "Merowing", surname: "Info")) {
      $0.name = "Merowing"
      $0.surname = "Info"
    }
  }
}

private struct EvenCounter: Reducer {
  struct State: Equatable {
    var count = 0
    var isEven = true
  }
  enum Action: Equatable, Sendable { case increment, decrement }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += action == .increment ? 1 : -1
    state.isEven.toggle()
    return .none
  }
}

private struct TwoResponses: Reducer {
  struct State: Equatable {
    var count = 0
    var int = 0
    var string = ""
  }
  enum Action: Equatable, Sendable, CasePathable {
    case onAppear
    case response1(Int)
    case response2(String)
    struct AllCasePaths {
      var onAppear: AnyCasePath<Action, Void> { casePath(Action.onAppear) }
      var response1: AnyCasePath<Action, Int> { casePath(Action.response1) }
      var response2: AnyCasePath<Action, String> { casePath(Action.response2) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      state = State()
      return .merge(.send(.response1(42)), .send(.response2("Hello")))
    case let .response1(int):
      state.count += 1
      state.int = int
      return .none
    case let .response2(string):
      state.count += 1
      state.string = string
      return .none
    }
  }
}

private struct Identity: Reducer {
  struct State: Equatable {
    var name = "Krzysztof"
    var surname = "Zabłocki"
  }
  enum Action: Equatable, Sendable { case changeIdentity(name: String, surname: String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .changeIdentity(name, surname):
      state.name = name
      state.surname = surname
      return .none
    }
  }
}
