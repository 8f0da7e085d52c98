import ComposableTesting
import Testing

/// A test target that depends on ComposableTesting (here: its `ComposableTestingSupport` half, as
/// the ComposableTesting product ships it, and nothing else) records reported issues as failures:
/// a failed assertion fails the test on Linux, at the line of the test that made it.
@MainActor
struct TestSupportTests {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  @Test func aReportedIssueFailsTheTest() {
    let recorded = LockIsolated<[String]>([])
    withKnownIssue {
      reportIssue("the feature misbehaved")
    } matching: { issue in
      recorded.withValue { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    #expect(recorded.value == ["the feature misbehaved"])
  }

  @Test func aWrongAssertionFailsAtTheLineOfItsSend() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    let lines = LockIsolated<[Int]>([])
    let sendLine = #line + 2
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      lines.withValue { $0.append(issue.sourceLocation?.line ?? 0) }
      return true
    }
    #expect(lines.value == [sendLine])
  }

  @Test func testSupportIsLinkedWhereTestStoresRun() {
    // Otherwise the first test store of the process would have stopped it.
    let store = TestStore(initialState: Counter.State()) { Counter() }
    #expect(store.state == Counter.State())
  }
}
