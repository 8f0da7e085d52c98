import Foundation
import IssueReporting

/// The reference behind every ``Shared`` value: one root value, its lock, its observers, its
/// persistence, and — under a ``TestStore`` — the snapshot that lets tests assert on it.
package protocol SharedBoxProtocol: AnyObject, Sendable {
  /// Reads the field at `keyPath` (a key path from the root) as the current mode sees it.
  func read<Value>(_ keyPath: AnyKeyPath, as type: Value.Type) -> Value
  /// Reads the field at `keyPath` as `tracker` expects it: the current value when it did not
  /// change, or without a tracker.
  func readSnapshot<Value>(_ keyPath: AnyKeyPath, as type: Value.Type, in tracker: SharedChangeTracker?) -> Value
  /// Runs a read-modify-write on the field at `keyPath` under the box's lock.
  func withLock<Value, Result>(
    _ keyPath: AnyKeyPath, _ body: (inout Value) throws -> Result
  ) rethrows -> Result
  /// Runs a read-modify-write that takes effect only if the changed value is saved.
  func withLockIfSaved<Value, Result>(
    _ keyPath: AnyKeyPath, _ body: (inout Value) throws -> Result
  ) throws -> Result
  /// Why the stored value could not be loaded; while set, the value is never saved.
  var loadError: (any Error)? { get }
  /// Why the last save failed; `nil` after a successful one.
  var saveError: (any Error)? { get }
  /// Calls `onChange` with the field's new value after every change; returns a token for `stopObserving`.
  func observe<Value: Sendable>(
    _ keyPath: AnyKeyPath, _ onChange: @escaping @Sendable (Value) -> Void
  ) -> Int
  func stopObserving(_ token: Int)
  /// A description of how the value changed from `snapshot` (a root value); `nil` when it did not.
  func describeChange(from snapshot: Any) -> String?
  /// A box of its own holding the value as `tracker` last saw it (the current value when unchanged
  /// or without a tracker): what an old copy of state reads.
  func frozen(seenBy tracker: SharedChangeTracker?) -> any SharedBoxProtocol
}

/// The reference type behind ``Shared``. Internal: users only see `Shared`.
package final class SharedBox<Root>: SharedBoxProtocol, @unchecked Sendable {
  // NB: Recursive, so a `withLock` body may read another `Shared` derived from the same root.
  private let lock = NSRecursiveLock()
  private var value: Root
  /// The test store tracker the value was first made or changed under: it sees every later change.
  private weak var tracker: SharedChangeTracker?
  private var observers: [Int: @Sendable (Root) -> Void] = [:]
  private var nextToken = 0
  private let persist: (@Sendable (Root) throws -> Void)?
  private let describe: @Sendable (Root, Root) -> String?
  package let loadError: (any Error)?
  private var lastSaveError: (any Error)?

  package init(
    _ value: Root,
    tracker: SharedChangeTracker?,
    persist: (@Sendable (Root) throws -> Void)? = nil,
    loadError: (any Error)? = nil,
    describe: @escaping @Sendable (Root, Root) -> String?
  ) {
    self.value = value
    self.tracker = tracker
    self.persist = persist
    self.loadError = loadError
    self.describe = describe
  }

  package var saveError: (any Error)? {
    lock.withLock { lastSaveError }
  }

  package func read<Value>(_ keyPath: AnyKeyPath, as type: Value.Type) -> Value {
    lock.withLock { root(as: SharedChangeTracker.mode.snapshotSource)[keyPath: keyPath] as! Value }
  }

  package func readSnapshot<Value>(
    _ keyPath: AnyKeyPath, as type: Value.Type, in tracker: SharedChangeTracker?
  ) -> Value {
    lock.withLock { root(as: tracker)[keyPath: keyPath] as! Value }
  }

  /// The root as `tracker` expects it, or the current value. Call under the lock.
  private func root(as tracker: SharedChangeTracker?) -> Root {
    guard let tracker, let snapshot = tracker.snapshot(of: self) else { return value }
    return snapshot as! Root
  }

  package func withLock<Value, Result>(
    _ keyPath: AnyKeyPath, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    let path = keyPath as! WritableKeyPath<Root, Value>
    lock.lock()
    defer { lock.unlock() }
    if case let .asserting(asserting) = SharedChangeTracker.mode {
      // NB: A test's assertion describes the expected value: it edits the snapshot, never the value.
      var expected = root(as: asserting)
      let result = try body(&expected[keyPath: path])
      asserting.setExpected(self, root: expected)
      return result
    }
    recordBeforeChange()
    let result = try body(&value[keyPath: path])
    do {
      try save(value)
    } catch {
      // NB: `withLock` cannot fail: the change stays in memory, and is reported.
      reportIssue("\(error). The change is kept in memory only.")
    }
    for observer in observers.values { observer(value) }
    return result
  }

  package func withLockIfSaved<Value, Result>(
    _ keyPath: AnyKeyPath, _ body: (inout Value) throws -> Result
  ) throws -> Result {
    guard !SharedChangeTracker.mode.isAsserting else { return try withLock(keyPath, body) }
    let path = keyPath as! WritableKeyPath<Root, Value>
    lock.lock()
    defer { lock.unlock() }
    // NB: the change is made on a copy, and kept only once saved: a refused change leaves the
    //     value, its observers and its test snapshots as they were.
    var changed = value
    let result = try body(&changed[keyPath: path])
    try save(changed)
    recordBeforeChange()
    value = changed
    for observer in observers.values { observer(value) }
    return result
  }

  /// Tells the trackers in effect (and the test store's) the value before a change. Call under
  /// the lock.
  private func recordBeforeChange() {
    if tracker == nil { tracker = SharedChangeTracker.current }
    if let tracker { tracker.recordBeforeChange(self, root: value) }
    for active in SharedChangeTracker.active where active !== tracker {
      active.recordBeforeChange(self, root: value)
    }
  }

  /// Saves `root`, unless loading failed (saving would overwrite what could not be read).
  private func save(_ root: Root) throws {
    guard let persist else { return }
    if let loadError {
      let url = (loadError as? SharedPersistenceError)?.url
      let error = SharedPersistenceError(.notLoaded, url: url, cause: loadError)
      lastSaveError = error
      throw error
    }
    do {
      try persist(root)
      lastSaveError = nil
    } catch {
      lastSaveError = error
      throw error
    }
  }

  package func observe<Value: Sendable>(
    _ keyPath: AnyKeyPath, _ onChange: @escaping @Sendable (Value) -> Void
  ) -> Int {
    // NB: Key paths are immutable; AnyKeyPath is just not marked Sendable.
    nonisolated(unsafe) let keyPath = keyPath
    return lock.withLock {
      nextToken += 1
      observers[nextToken] = { onChange($0[keyPath: keyPath] as! Value) }
      return nextToken
    }
  }

  package func stopObserving(_ token: Int) {
    lock.withLock { _ = observers.removeValue(forKey: token) }
  }

  package func describeChange(from snapshot: Any) -> String? {
    let current = lock.withLock { value }
    return describe(snapshot as! Root, current)
  }

  package func frozen(seenBy tracker: SharedChangeTracker?) -> any SharedBoxProtocol {
    let root = lock.withLock { self.root(as: tracker) }
    return SharedBox(root, tracker: nil, describe: describe)
  }
}
