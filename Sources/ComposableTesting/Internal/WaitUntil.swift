/// Waits, in real time, until `condition` holds or `timeout` passes; returns whether it held.
///
/// Only time in which the waiting task got to run counts against `timeout`. While a test store is
/// alive every task shares the main serial executor, so a long synchronous test running in
/// parallel can hold it for seconds; counting that stall would fail a wait whose effect never had
/// a turn. A stall shows up as one long gap between two checks, and each gap counts for at most
/// ``waitStallAllowance``.
@MainActor
func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
  if condition() { return true }
  await Task.megaYield()
  let clock = ContinuousClock()
  var waited = Duration.zero
  var last = clock.now
  while !condition() {
    let now = clock.now
    waited += min(now - last, waitStallAllowance)
    last = now
    if waited >= timeout { return false }
    await Task.megaYield(count: 4)
    if condition() { return true }
    try? await Task.sleep(for: .microseconds(200))
  }
  return true
}

/// The most one gap between two checks of ``waitUntil(timeout:_:)`` counts: far above a round of
/// yields and a 200 µs sleep on a busy machine, far below a stall.
let waitStallAllowance = Duration.milliseconds(20)
