import Foundation
import LuaBridge

/// The recorded dependency results still to hand out during a replay, by name, in call order.
///
/// An asynchronous answer waits until the replay reduced as many actions as the session had when
/// it answered (``reduced(_:)``): two effects sleeping at once wake in the recorded order, whatever
/// order the replay's scheduling would give them.
package final class ReplayQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [String: [RecordedResult]]
  private var answeredAfter: [String: [ReplayGate?]]
  private var reducedCount = 0
  /// The last numbered answer given.
  private var answered = 0
  /// Calls made beyond what the recording holds, by name: a replay that waits for effect actions
  /// that never come says why.
  private var overdrawnNames: [String] = []

  /// The names of the calls made beyond what the recording holds, in order.
  package var overdrawn: [String] { lock.withLock { overdrawnNames } }

  package init(_ results: [String: [RecordedResult]], answeredAfter: [String: [ReplayGate?]] = [:]) {
    self.results = results
    self.answeredAfter = answeredAfter
  }

  /// Tells the queue how many actions the replay reduced so far.
  package func reduced(_ count: Int) {
    lock.withLock { reducedCount = count }
  }

  /// The next result of a synchronous call.
  package func next(_ name: String) throws -> LuaValue {
    switch take(name)?.result {
    case let .value(value)?: return value
    case let .error(message)?: throw RecordError(message)
    case .cancelled?, nil:
      throw RecordError("deps.\(name) was called more often than in the recording")
    }
  }

  /// The next result of an asynchronous call. A call the recording saw cancelled (or did not see
  /// at all: the session stopped first) waits until its effect is cancelled, as it did then.
  package func nextAwaiting(_ name: String) async throws -> LuaValue {
    let next = take(name)
    if let gate = next?.gate {
      // NB: the replay runs effects on the main actor as the session did; a short poll is enough
      //     to see the actions and answers before this one come, and ends with the effect's
      //     cancellation.
      while lock.withLock({ reducedCount < gate.after || (gate.answer ?? 0) > answered + 1 }) {
        try await Task.sleep(for: .milliseconds(1))
      }
      if let answer = gate.answer { lock.withLock { answered = max(answered, answer) } }
    }
    switch next?.result {
    case let .value(value)?: return value
    case let .error(message)?: throw RecordError(message)
    case .cancelled?, nil:
      // NB: throws CancellationError once the effect is cancelled, as the recorded call did.
      while true { try await Task.sleep(for: .seconds(3600)) }
    }
  }

  private func take(_ name: String) -> (result: RecordedResult, gate: ReplayGate?)? {
    lock.withLock {
      guard var queue = results[name], !queue.isEmpty else {
        overdrawnNames.append(name)
        return nil
      }
      let result = queue.removeFirst()
      results[name] = queue
      var gate: ReplayGate?
      if var gates = answeredAfter[name], !gates.isEmpty {
        gate = gates.removeFirst()
        answeredAfter[name] = gates
      }
      return (result, gate)
    }
  }
}
