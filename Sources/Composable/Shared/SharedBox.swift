import Foundation
import IssueReporting

/// The reference behind every ``Shared`` value: one root value, its lock, its observers, its
/// persistence, and — under a ``TestStore`` — the snapshot that lets tests assert on it.
package protocol SharedBoxProtocol: AnyObject, Sendable {
  /// Reads the field at `keyPath` (a key path from the root) as the current mode sees it.
  func read<Value>(_ keyPath: AnyKeyPath, as type: Value.Type) -> Value
  /// Reads the field at `keyPath` as of the last test assertion (the current value when unchanged).
  func readSnapshot<Value>(_ keyPath: AnyKeyPath, as type: Value.Type) -> Value
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
  /// Forgets the test snapshot: the current value becomes the asserted one.
  func acceptChange()
  /// A description of how the value changed since the last assertion; `nil` when it did not.
  var unassertedChange: String? { get }
}

/// The reference type behind ``Shared``. Internal: users only see `Shared`.
package final class SharedBox<Root>: SharedBoxProtocol, @unchecked Sendable {
  // NB: Recursive, so a `withLock` body may read another `Shared` derived from the same root.
  private let lock = NSRecursiveLock()
  private var value: Root
  private var snapshot: Root?
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
    lock.withLock {
      let root = SharedChangeTracker.mode.readsSnapshot ? (snapshot ?? value) : value
      return root[keyPath: keyPath] as! Value
    }
  }

  package func readSnapshot<Value>(_ keyPath: AnyKeyPath, as type: Value.Type) -> Value {
    lock.withLock { (snapshot ?? value)[keyPath: keyPath] as! Value }
  }

  package func withLock<Value, Result>(
    _ keyPath: AnyKeyPath, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    let path = keyPath as! WritableKeyPath<Root, Value>
    lock.lock()
    defer { lock.unlock() }
    if tracker == nil { tracker = SharedChangeTracker.current }
    if SharedChangeTracker.mode == .asserting {
      // NB: A test's assertion describes the expected value: it edits the snapshot, never the value.
      var expected = snapshot ?? value
      let result = try body(&expected[keyPath: path])
      snapshot = expected
      tracker?.record(self, byAssertion: true)
      return result
    }
    if let tracker, snapshot == nil {
      snapshot = value
      tracker.record(self, byAssertion: false)
    }
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
    guard SharedChangeTracker.mode != .asserting else { return try withLock(keyPath, body) }
    let path = keyPath as! WritableKeyPath<Root, Value>
    lock.lock()
    defer { lock.unlock() }
    if tracker == nil { tracker = SharedChangeTracker.current }
    // NB: the change is made on a copy, and kept only once saved: a refused change leaves the
    //     value, its observers and its test snapshot as they were.
    var changed = value
    let result = try body(&changed[keyPath: path])
    try save(changed)
    if let tracker, snapshot == nil {
      snapshot = value
      tracker.record(self, byAssertion: false)
    }
    value = changed
    for observer in observers.values { observer(value) }
    return result
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

  package func acceptChange() {
    lock.withLock { snapshot = nil }
  }

  package var unassertedChange: String? {
    lock.withLock { snapshot.flatMap { describe($0, value) } }
  }
}
