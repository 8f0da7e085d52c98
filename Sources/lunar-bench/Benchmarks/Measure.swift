import Foundation

/// Times `body` (which performs `operations` operations) `repetitions` times and returns the best
/// nanoseconds per operation: the minimum is the figure least disturbed by other work on the machine.
func bestNanosecondsPerOperation(
  operations: Int,
  repetitions: Int,
  _ body: () -> Void
) -> Double {
  var best = Double.infinity
  for _ in 0..<max(1, repetitions) {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    best = min(best, Double(elapsed) / Double(operations))
  }
  return best
}

/// The CPU time the calling thread has used, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Formats a figure for a table: `12.3`.
func formatted(_ value: Double) -> String {
  String(format: value < 10 ? "%.2f" : "%.1f", value)
}
