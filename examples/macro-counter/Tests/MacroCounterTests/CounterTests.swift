import ComposableTesting
import MacroCounter
import Testing

@MainActor
struct CounterTests {
  @Test func incrementingAndDecrementingChangeTheCount() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(\.incrementButtonTapped) { $0.count = 1 }
    await store.send(\.decrementButtonTapped) { $0.count = 0 }
  }

  @Test func aFactIsReceivedByItsCaseKeyPath() async {
    let store = TestStore(initialState: Counter.State(count: 1)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse, "1 is a good number.") {
      $0.isLoading = false
      $0.fact = "1 is a good number."
    }
  }

  @Test func anUnimplementedClientFailsTheTest() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.factButtonTapped)
      await store.finish()
    } matching: { issue in
      issue.description.contains("Unimplemented: 'NumberFactClient.fetch'")
        || issue.description.contains("threw an unhandled error")
    }
  }
}
