import Composable
import ComposableTesting
import Testing

/// What a test store reports when a test is wrong, ported from TCA's `TestStoreFailureTests`.
@MainActor
struct TCATestStoreFailureTests {
  enum Step: Equatable, Sendable { case first, second }

  /// `.first` sends `.second`; `.second` adds `increment` to the count.
  func chain(increment: Int = 0) -> Reduce<Int, Step> {
    Reduce { state, action in
      switch action {
      case .first: return .send(.second)
      case .second:
        state += increment
        return .none
      }
    }
  }

  @Test func aClosureThatChangesNothingFailsOnSendAndOnReceive() async {
    let store = TestStore(initialState: 0) { chain() }
    await withKnownIssue {
      await store.send(.first) { _ = $0 }
    } matching: { $0.description.contains("Expected state to change, but no change occurred") }
    await withKnownIssue {
      await store.receive(.second) { _ = $0 }
    } matching: { $0.description.contains("Expected state to change, but no change occurred") }
  }

  @Test func aWrongExpectationShowsExpectedAndActual() async {
    struct State: Equatable { var count = 0 }
    let store = TestStore(initialState: State()) {
      Reduce<State, Void> { state, _ in
        state.count += 1
        return .none
      }
    }
    await withKnownIssue {
      await store.send(()) { $0.count = 0 }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("− TCATestStoreFailureTests.State(count: 0)")
        && issue.description.contains("+ TCATestStoreFailureTests.State(count: 1)")
        && issue.description.contains("(Expected: −, Actual: +)")
    }
  }

  @Test func anUnexpectedChangeOnSendFails() async {
    struct State: Equatable { var count = 0 }
    let store = TestStore(initialState: State()) {
      Reduce<State, Void> { state, _ in
        state.count += 1
        return .none
      }
    }
    await withKnownIssue {
      await store.send(())
    } matching: { $0.description.contains("State was not expected to change, but a change occurred") }
  }

  @Test func anUnexpectedChangeOnReceiveFails() async {
    let store = TestStore(initialState: 0) { chain(increment: 1) }
    await store.send(.first)
    await withKnownIssue {
      await store.receive(.second)
    } matching: { $0.description.contains("State was not expected to change, but a change occurred") }
  }

  @Test func anActionLeftUnreceivedFailsTheEndOfTheTest() async {
    await withKnownIssue {
      let store = TestStore(initialState: 0) { chain() }
      await store.send(.first)
    } matching: { issue in
      issue.description.contains("The store received 1 unexpected action")
        && issue.description.contains("TCATestStoreFailureTests.Step.second")
    }
  }

  @Test func anActionLeftUnreceivedFailsFinishOnce() async {
    let store = TestStore(initialState: 0) { chain() }
    await store.send(.first)
    await withKnownIssue {
      await store.finish()
    } matching: { $0.description.contains("The store received 1 unexpected action") }
    // NB: Reported by `finish`, it stays receivable and is not reported again at the end.
    await store.receive(.second)
  }

  @Test func anEffectStillRunningFailsTheEndOfTheTest() async {
    await withKnownIssue {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Void> { _, _ in .run { _ in try await Task.never() } }
      }
      await store.send(())
    } matching: { $0.description.contains("An effect returned for this action is still running") }
  }

  @Test func sendingBeforeReceivingFailsAndTheActionsStayReceivable() async {
    let store = TestStore(initialState: 0) { chain() }
    await store.send(.first)
    await withKnownIssue {
      await store.send(.first)
    } matching: { issue in
      issue.description.contains("Must handle 1 received action before sending an action")
        && issue.description.contains("TCATestStoreFailureTests.Step.second")
    }
    await store.receive(.second)
    await store.receive(.second)
  }

  @Test func receivingWhenNothingCanArriveFailsAtOnce() async {
    enum Action: Equatable, Sendable { case action }
    let store = TestStore(initialState: 0) { Reduce<Int, Action> { _, _ in .none } }
    store.timeout = .seconds(60)
    let clock = ContinuousClock()
    let start = clock.now
    await withKnownIssue {
      await store.receive(.action)
    } matching: { issue in
      issue.description.contains("Expected to receive TCATestStoreFailureTests.Action.action, but received none")
        && issue.description.contains("No effect is running")
    }
    // NB: Not a timing assertion: the wait would last the whole minute; anything shorter is fine.
    #expect(clock.now - start < .seconds(30))
  }

  @Test func receivingTheWrongActionShowsADiff() async {
    let store = TestStore(initialState: 0) { chain(increment: 1) }
    await store.send(.first)
    await withKnownIssue {
      await store.receive(.first)
    } matching: { issue in
      issue.description.contains("Received unexpected action")
        && issue.description.contains("− TCATestStoreFailureTests.Step.first")
        && issue.description.contains("+ TCATestStoreFailureTests.Step.second")
        && issue.description.contains("(Expected: −, Received: +)")
    }
  }

  @Test func anAssertionClosureThatThrowsFails() async {
    struct SomeError: Error {}
    let store = TestStore(initialState: 0) { Reduce<Int, Void> { _, _ in .none } }
    await withKnownIssue {
      await store.send(()) { _ in throw SomeError() }
    } matching: { $0.description.contains("Threw error: SomeError()") }
  }

  @Test func receivingACaseThatNeverCameNamesTheCase() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.receive(\.factResponse)
    } matching: { issue in
      issue.description.contains(#"Expected to receive an action of case \.factResponse, but received none."#)
    }
  }
}
