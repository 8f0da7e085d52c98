import Foundation
import LuaBridge

/// The recorded dependency results still to hand out during a replay, by name, in call order.
package final class ReplayQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [String: [RecordedResult]]
  /// Calls made beyond what the recording holds, by name: a replay that waits for effect actions
  /// that never come says why.
  private var overdrawnNames: [String] = []

  /// The names of the calls made beyond what the recording holds, in order.
  package var overdrawn: [String] { lock.withLock { overdrawnNames } }

  package init(_ results: [String: [RecordedResult]]) {
    self.results = results
  }

  /// The next result of a synchronous call.
  package func next(_ name: String) throws -> LuaValue {
    switch take(name) {
    case let .value(value)?: return value
    case let .error(message)?: throw RecordError(message)
    case .cancelled?, nil:
      throw RecordError("deps.\(name) was called more often than in the recording")
    }
  }

  /// The next result of an asynchronous call. A call the recording saw cancelled (or did not see
  /// at all: the session stopped first) waits until its effect is cancelled, as it did then.
  package func nextAwaiting(_ name: String) async throws -> LuaValue {
    switch take(name) {
    case let .value(value)?: return value
    case let .error(message)?: throw RecordError(message)
    case .cancelled?, nil:
      // NB: throws CancellationError once the effect is cancelled, as the recorded call did.
      while true { try await Task.sleep(for: .seconds(3600)) }
    }
  }

  private func take(_ name: String) -> RecordedResult? {
    lock.withLock {
      guard var queue = results[name], !queue.isEmpty else {
        overdrawnNames.append(name)
        return nil
      }
      let result = queue.removeFirst()
      results[name] = queue
      return result
    }
  }
}
