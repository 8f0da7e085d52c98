import ConcurrencyExtras

/// Keeps every task on the main serial executor while at least one ``TestStore`` is alive.
///
/// Effects run their work off the main actor; on the global executor, whether an effect has reached
/// its `clock.sleep` by the time a test advances a `TestClock` depends on thread scheduling, so tests
/// of timers, debounces and throttles would be flaky, most of all when tests run in parallel. On the
/// main serial executor, the yields a test store makes run every ready task in order, as in TCA.
@MainActor
final class MainSerialExecutorLease {
  // NB: The executor hook is one per process while test stores are many, and parallel tests create
  //     and release them in any order: count the holders so the last one out restores the hook.
  private static var holders = 0
  private static var originalValue = false

  init() {
    if Self.holders == 0 {
      Self.originalValue = uncheckedUseMainSerialExecutor
      uncheckedUseMainSerialExecutor = true
    }
    Self.holders += 1
  }

  isolated deinit {
    Self.holders -= 1
    if Self.holders == 0 {
      uncheckedUseMainSerialExecutor = Self.originalValue
    }
  }
}
