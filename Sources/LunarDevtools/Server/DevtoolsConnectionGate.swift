import Synchronization

/// Counts the server's open connections (requests being answered, pages' live connections) and
/// refuses past a bound, so that no client can make the host hold ever more of them.
///
/// A place is taken with ``enter()`` and given back by its ``Pass`` — explicitly when the
/// connection closes, or when the pass is released, whichever comes first.
final class DevtoolsConnectionGate: Sendable {
  let limit: Int
  private let open = Mutex(0)

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// Connections open now.
  var count: Int { open.withLock { $0 } }

  /// A place for one more connection, or `nil` when `limit` are open.
  func enter() -> Pass? {
    let admitted = open.withLock { open in
      guard open < limit else { return false }
      open += 1
      return true
    }
    return admitted ? Pass(gate: self) : nil
  }

  fileprivate func leave() {
    open.withLock { $0 -= 1 }
  }

  /// One connection's place; given back once.
  final class Pass: Sendable {
    private let gate: DevtoolsConnectionGate
    private let left = Atomic(false)

    fileprivate init(gate: DevtoolsConnectionGate) {
      self.gate = gate
    }

    /// Gives the place back (again: nothing happens).
    func leave() {
      if !left.exchange(true, ordering: .relaxed) { gate.leave() }
    }

    // NB: a connection that ends before it could say so (a handshake answered but never sent)
    //     gives its place back when nothing holds it any more.
    deinit { leave() }
  }
}
