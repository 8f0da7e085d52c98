import Clocks
import Composable
import ComposableTesting
import Testing

/// The test store's three exhaustive rules, and what non-exhaustive test stores let through.
@MainActor
struct TestStoreExhaustivityTests {
  func makeStore(clock: TestClock<Duration> = TestClock()) -> TestStoreOf<Pinger> {
    TestStore(initialState: Pinger.State()) {
      Pinger()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  // MARK: - Exhaustive

  @Test func anUnassertedStateChangeFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.increment)
    } matching: { issue in
      issue.description.contains("State was not expected to change, but a change occurred")
        && issue.description.contains("+   count: 1")
        && issue.description.contains("(Expected: −, Actual: +)")
    }
  }

  @Test func aClosureThatChangesNothingFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.noop) { $0.count = 0 }
    } matching: { issue in
      issue.description.contains("Expected state to change, but no change occurred")
    }
  }

  @Test func anUnreceivedActionFailsTheNextSend() async {
    let store = makeStore()
    await store.send(.ping("a"))
    await withKnownIssue {
      await store.send(.increment) { $0.count = 1 }
    } matching: { issue in
      issue.description.contains("Must handle 1 received action before sending an action")
        && issue.description.contains(#"Pinger.Action.pong("a")"#)
    }
    await store.receive(.pong("a"))
  }

  @Test func unreceivedActionsStayReceivableAfterTheFailedSend() async {
    let store = makeStore()
    await store.send(.ping("a"))
    await withKnownIssue {
      await store.send(.increment) { $0.count = 1 }
    } matching: { issue in
      issue.description.contains("Must handle 1 received action")
    }
    await store.receive(.pong("a"))
    await store.send(.increment) { $0.count = 2 }
  }

  @Test func anUnreceivedActionFailsFinish() async {
    let store = makeStore()
    await store.send(.ping("a"))
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.description.contains("The store received 1 unexpected action")
        && issue.description.contains(#"Pinger.Action.pong("a")"#)
    }
  }

  @Test func anUnreceivedActionFailsTheEndOfTheTest() async {
    await withKnownIssue {
      let store = makeStore()
      await store.send(.pingTwice)
    } matching: { issue in
      issue.description.contains("The store received 2 unexpected actions")
    }
  }

  @Test func anEffectStillRunningFailsTheEndOfTheTest() async {
    await withKnownIssue {
      let store = makeStore()
      await store.send(.pingLater)
    } matching: { issue in
      issue.description.contains("An effect returned for this action is still running")
        && issue.description.contains("an effect created at ComposableTests/Pinger.swift:")
    }
  }

  @Test func receivedActionsArriveInTheOrderAStoreReducesThem() async {
    let store = makeStore()
    await store.send(.chain(2)) { $0.count = 1 }
    await store.receive(.chain(1)) { $0.count = 2 }
    await store.receive(.pong("after 2")) { $0.pongs = ["after 2"] }
    await store.receive(.chain(0)) { $0.count = 3 }
    await store.receive(.pong("after 1")) { $0.pongs = ["after 2", "after 1"] }
  }

  // MARK: - Non-exhaustive

  @Test func offChecksOnlyWhatIsAsserted() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.increment)
    await store.send(.increment) { $0.count = 2 }
    await store.send(.pingTwice)
    await store.receive(.pong("two")) { $0.pongs = ["one", "two"] }
  }

  @Test func offStillFailsAWrongAssertion() async {
    let store = makeStore()
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.increment) { $0.count = 5 }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("−   count: 5")
        && issue.description.contains("+   count: 1")
    }
  }

  @Test func offAcceptsUnreceivedActionsAndRunningEffects() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.ping("a"))
    await store.send(.pingLater)
    await store.send(.increment) { $0.count = 1 }
    #expect(store.state.pongs == ["a"])
  }

  @Test func offReceiveStillFailsWhenTheActionNeverComes() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.ping("a"))
    await withKnownIssue {
      await store.receive(.pong("b"), timeout: .milliseconds(50))
    } matching: { issue in
      issue.description.contains(#"Expected to receive Pinger.Action.pong("b"), but received none."#)
    }
  }

  @Test func offWithShownSkippedAssertionsStillPasses() async {
    let store = makeStore()
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.increment)
    await store.send(.ping("a"))
    await store.receive(.pong("a")) { $0.pongs = ["a"] }
    await store.send(.increment) { $0.count = 2 }
  }
}
