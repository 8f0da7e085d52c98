import ConcurrencyExtras
import Foundation
import Testing

@testable import ComposableTesting

/// How long a test store waits for an effect: real time in which the waiting test got to run.
@MainActor
struct TestStoreWaitTests {
  @Test func aStallOfTheMainThreadDoesNotUseUpTheTimeout() async {
    var checks = 0
    // NB: The second check stands for a parallel test holding the main serial executor for three
    //     times the timeout before the effect got its turn; the effect is done by the fourth check.
    let arrived = await waitUntil(timeout: .milliseconds(100)) {
      checks += 1
      if checks == 2 { Thread.sleep(forTimeInterval: 0.3) }
      return checks >= 4
    }
    #expect(arrived)
  }

  @Test func aConditionThatNeverHoldsGivesUpAfterTheTimeout() async {
    let clock = ContinuousClock()
    let start = clock.now
    let arrived = await waitUntil(timeout: .milliseconds(100)) { false }
    #expect(!arrived)
    #expect(clock.now - start >= .milliseconds(100))
  }

  @Test func manyStallsStillEndTheWait() async {
    var checks = 0
    // NB: Each stall counts for a little, so a wait that only ever stalls still ends.
    let arrived = await waitUntil(timeout: .milliseconds(100)) {
      checks += 1
      Thread.sleep(forTimeInterval: 0.03)
      return false
    }
    #expect(!arrived)
    #expect(checks <= 12)
  }
}

/// The main serial executor is shared by test stores and `withTestStoreExecutor`.
@MainActor
struct TestStoreExecutorTests {
  @Test func aTestStoreKeepsTheExecutorAfterAPlainStoreTestAroundItEnds() async {
    var store: TestStoreOf<Counter>?
    await withTestStoreExecutor {
      store = TestStore(initialState: Counter.State()) { Counter() }
    }
    // NB: swift-concurrency-extras' `withMainSerialExecutor` would have restored the setting it
    //     found (off, when no other test store runs) under the test store that still needs it.
    #expect(uncheckedUseMainSerialExecutor)
    #expect(store != nil)
    store = nil
  }

  @Test func theExecutorIsOnWhileTheOperationRuns() async {
    let on = await withTestStoreExecutor { uncheckedUseMainSerialExecutor }
    #expect(on)
  }
}
