import Clocks
import Composable
import ComposableTesting
import Testing

/// What a test store says when a test's expectation is wrong, and its helpers for ending a test.
@MainActor
struct TestStoreFailureTests {
  func makeStore(clock: TestClock<Duration> = TestClock()) -> TestStoreOf<Pinger> {
    TestStore(initialState: Pinger.State()) {
      Pinger()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aWrongExpectationFailsWithADiff() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.send(.incrementButtonTapped) { $0.count = 2 }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("−   count: 2")
        && issue.description.contains("+   count: 1")
    }
  }

  @Test func aFailurePointsAtTheLineOfTheAssertion() async {
    let store = makeStore()
    let line = #line + 2
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "TestStoreFailureTests.swift"
    }
  }

  @Test func receivingTheWrongActionShowsWhatWasReceived() async {
    let store = makeStore()
    await store.send(.ping("a"))
    await withKnownIssue {
      await store.receive(.pong("b")) { $0.pongs = ["b"] }
    } matching: { issue in
      issue.description.contains("Received unexpected action")
        && issue.description.contains(#"− Pinger.Action.pong("b")"#)
        && issue.description.contains(#"+ Pinger.Action.pong("a")"#)
    }
  }

  @Test func receivingTheWrongCaseShowsBothActions() async {
    let store = makeStore()
    await store.send(.ping("a"))
    await withKnownIssue {
      await store.receive({ if case .chain = $0 { true } else { false } })
    } matching: { issue in
      issue.description.contains("Received unexpected action")
        && issue.description.contains("an action matching the predicate")
        && issue.description.contains(#"Pinger.Action.pong("a")"#)
    }
  }

  @Test func receiveTimesOutWhenTheActionNeverArrives() async {
    let store = makeStore()
    await store.send(.pingLater)
    await withKnownIssue {
      await store.receive(.pong("later"), timeout: .milliseconds(50))
    } matching: { issue in
      issue.description.contains(#"Expected to receive Pinger.Action.pong("later"), but received none."#)
        && issue.description.contains("1 effect(s) still running")
    }
    await store.skipInFlightEffects()
  }

  @Test func finishTimesOutWhileAnEffectIsStillRunning() async {
    let store = makeStore()
    await store.send(.pingLater)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(50))
    } matching: { issue in
      issue.description.contains("Expected effects to finish, but 1 still running")
        && issue.description.contains("an effect created at ComposableTests/Pinger.swift:")
    }
    await store.skipInFlightEffects()
  }

  @Test func finishWaitsForEffectsThatComplete() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.pingLater)
    await clock.advance(by: .seconds(1))
    await store.receive(.pong("later")) { $0.pongs = ["later"] }
    await store.finish()
  }

  @Test func skipReceivedActionsAcceptsThemAndTheirStateChanges() async {
    let store = makeStore()
    await store.send(.pingTwice)
    await store.skipReceivedActions()
    await store.send(.ping("three"))
    await store.receive(.pong("three")) { $0.pongs = ["one", "two", "three"] }
  }

  @Test func skipReceivedActionsWithNothingToSkipFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.skipReceivedActions()
    } matching: { issue in
      issue.description.contains("There were no received actions to skip")
    }
    await store.skipReceivedActions(strict: false)
  }

  @Test func skipInFlightEffectsLetsThemRunAndSend() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.pingLater)
    await store.skipInFlightEffects()
    await clock.advance(by: .seconds(1))
    await store.receive(.pong("later")) { $0.pongs = ["later"] }
  }

  @Test func skippedEffectsAreNotWaitedForAtTheEnd() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.pingLater)
    await store.skipInFlightEffects()
    await store.finish()
  }

  @Test func skipInFlightEffectsWithNothingRunningFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.skipInFlightEffects()
    } matching: { issue in
      issue.description.contains("There were no in-flight effects to skip")
    }
  }

  @Test func receiveByCaseKeyPath() async {
    let store = TestStore(initialState: Counter.State(count: 1)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is one" }
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse) {
      $0.isLoading = false
      $0.fact = "1 is one"
    }
  }

  @Test func receiveByCaseKeyPathAndPayloadShowsAPayloadDiff() async {
    let store = TestStore(initialState: Counter.State(count: 1)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is one" }
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await withKnownIssue {
      await store.receive(\.factResponse, "1 is two") {
        $0.isLoading = false
        $0.fact = "1 is one"
      }
    } matching: { issue in
      issue.description.contains("Received unexpected action")
        && issue.description.contains(#"− "1 is two""#)
        && issue.description.contains(#"+ "1 is one""#)
    }
  }

  @Test func receiveByCaseKeyPathAndPayload() async {
    let store = TestStore(initialState: Counter.State(count: 1)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is one" }
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse, "1 is one") {
      $0.isLoading = false
      $0.fact = "1 is one"
    }
  }

  @Test func assertPassesWhenTheStateMatches() async {
    let store = makeStore()
    await store.send(.increment) { $0.count = 1 }
    store.assert { $0.count = 1 }
  }

  @Test func assertFailsWithADiffWhenTheStateDiffers() async {
    let store = makeStore()
    await store.send(.increment) { $0.count = 1 }
    withKnownIssue {
      store.assert { $0.count = 3 }
    } matching: { issue in
      issue.description.contains("−   count: 3") && issue.description.contains("+   count: 1")
    }
  }

  @Test func assertChecksStateAfterSkippedActions() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.ping("a"))
    await store.skipReceivedActions()
    store.assert { $0.pongs = ["a"] }
  }
}
