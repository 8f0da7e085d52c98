import ConcurrencyExtras

/// Wakes the effects that wait for a stream a Lua test feeds (`test.stream()`): an effect whose
/// loop finds the stream empty waits here until the test yields to it or finishes it, or until
/// the effect is cancelled.
final class LuaStreamSignals: Sendable {
  private struct Waiting {
    var next = 0
    var waiters: [Int: (stream: Int64, continuation: CheckedContinuation<Void, Never>)] = [:]
    /// Waits cancelled before they began.
    var cancelled: Set<Int> = []
  }

  private let state = LockIsolated(Waiting())

  /// Returns once `stream` is fed or finished, or the task is cancelled.
  func wait(for stream: Int64) async {
    let token = state.withValue { state in
      state.next += 1
      return state.next
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelled = state.withValue { state in
          if state.cancelled.remove(token) != nil { return true }
          state.waiters[token] = (stream, continuation)
          return false
        }
        if cancelled { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withValue { state in
        guard let waiter = state.waiters.removeValue(forKey: token) else {
          state.cancelled.insert(token)
          return nil as CheckedContinuation<Void, Never>?
        }
        return waiter.continuation
      }
      waiter?.resume()
    }
  }

  /// Wakes every effect waiting for `stream`.
  func signal(_ stream: Int64) {
    let woken = state.withValue { state in
      let matching = state.waiters.filter { $0.value.stream == stream }
      for token in matching.keys { state.waiters[token] = nil }
      return matching.values.map(\.continuation)
    }
    for continuation in woken { continuation.resume() }
  }
}
