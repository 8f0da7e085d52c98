import Foundation
import LuaBridge

/// The recorded dependency results still to hand out during a replay, by name, in call order.
///
/// A call takes the first result of its name recorded with the same arguments (the first of its
/// name when none was): two effects that call one dependency at once, each with its own arguments
/// (a timer's `clock.sleep(1)`, a loop's `clock.sleep(0.1)`), get their own results whichever
/// calls first in the replay.
///
/// An asynchronous answer waits until the replay reduced as many actions as the session had when
/// it answered (``reduced(_:)``): two effects sleeping at once wake in the recorded order, whatever
/// order the replay's scheduling would give them.
package final class ReplayQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [String: [RecordedResult]]
  private var answeredAfter: [String: [ReplayGate?]]
  private var arguments: [String: [[LuaValue]?]]
  private var reducedCount = 0
  /// The last numbered answer given.
  private var answered = 0
  /// Calls made beyond what the recording holds, by name: a replay that waits for effect actions
  /// that never come says why.
  private var overdrawnNames: [String] = []

  /// The names of the calls made beyond what the recording holds, in order.
  package var overdrawn: [String] { lock.withLock { overdrawnNames } }

  package init(
    _ results: [String: [RecordedResult]], answeredAfter: [String: [ReplayGate?]] = [:],
    arguments: [String: [[LuaValue]?]] = [:]
  ) {
    self.results = results
    self.answeredAfter = answeredAfter
    self.arguments = arguments
  }

  /// Tells the queue how many actions the replay reduced so far.
  package func reduced(_ count: Int) {
    lock.withLock { reducedCount = count }
  }

  /// The next result of a synchronous call.
  package func next(_ name: String, arguments: [LuaValue] = []) throws -> LuaValue {
    switch take(name, arguments: arguments)?.result {
    case let .value(value)?: return value
    case let .error(message)?: throw RecordError(message)
    case .cancelled?, nil:
      throw RecordError("deps.\(name) was called more often than in the recording")
    }
  }

  /// The next result of an asynchronous call. A call the recording saw cancelled (or did not see
  /// at all: the session stopped first) waits until its effect is cancelled, as it did then.
  package func nextAwaiting(_ name: String, arguments: [LuaValue] = []) async throws -> LuaValue {
    let next = take(name, arguments: arguments)
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

  private func take(_ name: String, arguments given: [LuaValue]) -> (result: RecordedResult, gate: ReplayGate?)? {
    lock.withLock {
      guard var queue = results[name], !queue.isEmpty else {
        overdrawnNames.append(name)
        return nil
      }
      var recorded = arguments[name] ?? []
      let index = recorded.firstIndex { $0.map { Recording.sameThroughJSON(.array($0), .array(given)) } ?? true }
        .flatMap { $0 < queue.count ? $0 : nil } ?? 0
      let result = queue.remove(at: index)
      results[name] = queue
      if index < recorded.count {
        recorded.remove(at: index)
        arguments[name] = recorded
      }
      var gate: ReplayGate?
      if var gates = answeredAfter[name], index < gates.count {
        gate = gates.remove(at: index)
        answeredAfter[name] = gates
      }
      return (result, gate)
    }
  }
}
