import Dependencies
import Foundation

/// Records which ``Shared`` values changed since a ``TestStore`` last asserted on them, so that a test
/// can assert on shared state exhaustively although it is a reference.
///
/// Each test store owns one tracker and installs it as the `sharedChangeTracker` dependency, so the
/// reducer and every effect it starts find it. A shared value mutated while a tracker is in effect
/// keeps a *snapshot* of its value as of the last assertion; the test store compares the snapshot
/// (edited by the test's assertion closure) with the current value.
package final class SharedChangeTracker: @unchecked Sendable {
  /// How `Shared` reads and writes behave in the current task.
  package enum Mode: Sendable, Equatable {
    /// Reads and writes the current value.
    case live
    /// Inside a test's assertion closure: reads and writes the snapshot (the expected value).
    case asserting
    /// Comparing expected with actual state: `==` reads the snapshot on its left-hand side.
    case comparing
    /// Dumping the *expected* side of a diff: reads the snapshot.
    case dumpingExpected

    var readsSnapshot: Bool { self == .asserting || self == .dumpingExpected }
  }

  @TaskLocal package static var mode = Mode.live

  private let lock = NSLock()
  private var changed: [ObjectIdentifier: any SharedBoxProtocol] = [:]
  private var assertionWrote = false

  package init() {}

  /// The tracker of the test store whose reducer or effect is running, if any.
  static var current: SharedChangeTracker? {
    @Dependency(\.sharedChangeTracker) var tracker
    return tracker
  }

  func record(_ box: any SharedBoxProtocol, byAssertion: Bool) {
    lock.withLock {
      changed[ObjectIdentifier(box)] = box
      if byAssertion { assertionWrote = true }
    }
  }

  /// Whether an assertion closure edited a shared value since the last ``acceptAll()``.
  package var didAssert: Bool { lock.withLock { assertionWrote } }

  /// Descriptions of the shared values changed since the last ``acceptAll()``, not yet asserted.
  package var unassertedChanges: [String] {
    let boxes = lock.withLock { Array(changed.values) }
    return boxes.compactMap(\.unassertedChange)
  }

  /// Marks every change as asserted: snapshots are dropped and the current values become expected.
  package func acceptAll() {
    let boxes = lock.withLock {
      defer { changed.removeAll(); assertionWrote = false }
      return Array(changed.values)
    }
    for box in boxes { box.acceptChange() }
  }
}

private enum SharedChangeTrackerKey: DependencyKey {
  static let liveValue: SharedChangeTracker? = nil
  static let testValue: SharedChangeTracker? = nil
}

extension DependencyValues {
  /// The tracker a ``TestStore`` installs to assert on shared state; `nil` outside test stores.
  package var sharedChangeTracker: SharedChangeTracker? {
    get { self[SharedChangeTrackerKey.self] }
    set { self[SharedChangeTrackerKey.self] = newValue }
  }
}
