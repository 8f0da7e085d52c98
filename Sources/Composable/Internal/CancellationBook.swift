import Foundation

/// The cancellation ids of one store: which running work each id (in each feature instance) reaches.
///
/// Each store (and each test store) owns one book, so ids never leak between stores. The book is
/// locked rather than main-actor isolated: `Task.cancel(id:)` may be called from an effect's work
/// on any thread, and must take effect before it returns, as in TCA.
package final class CancellationBook: @unchecked Sendable {
  private let lock = NSLock()
  private var nextID = 0
  private var entries: [CancelKey: [Int: @Sendable () -> Void]] = [:]

  package init() {}

  /// A new registration number for work registered outside the runtime (`withTaskCancellation`).
  /// NB: Negative, so it never meets the runtime's own numbers, which count up from 0.
  func makeID() -> Int {
    lock.withLock {
      nextID += 1
      return -nextID
    }
  }

  /// Files `cancel` under every key in `keys`, until ``unregister(_:keys:)``.
  func register(_ id: Int, keys: [CancelKey], cancel: @escaping @Sendable () -> Void) {
    guard !keys.isEmpty else { return }
    lock.withLock {
      for key in keys { entries[key, default: [:]][id] = cancel }
    }
  }

  func unregister(_ id: Int, keys: [CancelKey]) {
    guard !keys.isEmpty else { return }
    lock.withLock {
      for key in keys {
        entries[key]?[id] = nil
        if entries[key]?.isEmpty == true { entries[key] = nil }
      }
    }
  }

  /// Cancels everything filed under `key`.
  func cancel(_ key: CancelKey) {
    let cancels = lock.withLock { entries.removeValue(forKey: key).map { Array($0.values) } ?? [] }
    // NB: Outside the lock: cancelling a task runs its cancellation handlers, which may unregister.
    for cancel in cancels { cancel() }
  }

  /// Cancels everything in the book, as when its store goes away.
  func cancelAll() {
    let cancels = lock.withLock {
      defer { entries.removeAll() }
      return entries.values.flatMap(\.values)
    }
    for cancel in cancels { cancel() }
  }

  /// How many registrations a key holds; for tests of the book itself.
  func count(for key: CancelKey) -> Int {
    lock.withLock { entries[key]?.count ?? 0 }
  }
}

/// A cancellation id within the feature instance (the scope path) that used it.
struct CancelKey: Hashable, Sendable {
  let path: [AnyEffectID]
  let id: AnyEffectID

  /// The keys under which work started at `path` with `id` is filed: the path itself and each of
  /// its ancestors, so that a parent's `.cancel(id:)` reaches its children's work, while siblings
  /// (whose paths differ below the parent) and ancestors (whose path is shorter) stay out of reach.
  static func reaching(_ id: AnyEffectID, from path: [AnyEffectID]) -> [CancelKey] {
    (0...path.count).map { CancelKey(path: Array(path[..<$0]), id: id) }
  }
}
