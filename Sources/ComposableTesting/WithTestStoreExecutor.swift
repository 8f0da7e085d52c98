/// Runs `operation` with every task on the main serial executor, the executor a live ``TestStore``
/// puts effects on, so that a test of a plain `Store` under a `TestClock` is as deterministic as
/// one of a test store: an effect reaches its `clock.sleep` before the test advances the clock.
///
/// ```swift
/// @Test func theTimerTicks() async {
///   await withTestStoreExecutor {
///     let clock = TestClock()
///     let store = Store(initialState: Counter.State()) { Counter() } withDependencies: {
///       $0.continuousClock = clock
///     }
///     store.send(.toggleTimerButtonTapped)
///     await clock.advance(by: .seconds(2))
///     #expect(store.count == 2)
///   }
/// }
/// ```
///
/// > Important: Use this rather than swift-concurrency-extras' `withMainSerialExecutor` in tests that
/// > run in parallel with test stores. The executor is one per process: `withMainSerialExecutor`
/// > restores the setting it found when it ends, which switches the executor off under test stores
/// > that are still running, and makes their clock-driven tests flaky. This function shares the
/// > executor with them and leaves it on while any of them needs it.
@MainActor
public func withTestStoreExecutor<Result>(
  _ operation: @MainActor () async throws -> Result
) async rethrows -> Result {
  let lease = MainSerialExecutorLease()
  defer { withExtendedLifetime(lease) {} }
  return try await operation()
}
