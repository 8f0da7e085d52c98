import Composable
import ComposableTesting
import Testing

@MainActor
struct TestStoreFailureTests {
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
}
