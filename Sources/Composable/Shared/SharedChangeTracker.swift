import Dependencies
import Foundation

/// Records the ``Shared`` values changed while it tracks, with the value each had before, so that
/// the change can be asserted, printed or compared although `Shared` is a reference.
///
/// A ``TestStore`` tracks every shared value its feature changes this way; `_printChanges` and
/// ``withSharedChangeTracking(_:)`` use a tracker of their own. In a test of plain `Shared` values:
///
/// ```swift
/// let count = Shared(0)
/// withSharedChangeTracking { tracker in
///   count.withLock { $0 += 1 }
///   tracker.assert {
///     #expect(count != count)            // the value before (0) against the value now (1)
///     count.withLock { $0 = 1 }          // inside `assert`, this edits the expected value
///     #expect(count == count)
///   }
/// }
/// ```
///
/// > Important: Only changes made while the tracker tracks (inside ``track(_:)``, and in the tasks
/// > started there) are recorded. Inside ``assert(_:)``, `withLock` changes what the test expects,
/// > never the value itself.
public final class SharedChangeTracker: Hashable, @unchecked Sendable {
  /// How `Shared` reads and writes behave in the current task.
  package enum Mode: Sendable {
    /// Reads and writes the current value.
    case live
    /// Inside an assertion: reads and writes the tracker's snapshot (the expected value).
    case asserting(SharedChangeTracker)
    /// Comparing expected with actual state: `==` reads the snapshot on its left-hand side.
    case comparing(SharedChangeTracker)
    /// Dumping the *expected* (or the earlier) side of a diff: reads the snapshot.
    case dumpingExpected(SharedChangeTracker)

    /// The tracker whose snapshots reads see, if any.
    var snapshotSource: SharedChangeTracker? {
      switch self {
      case let .asserting(tracker), let .dumpingExpected(tracker): tracker
      case .live, .comparing: nil
      }
    }

    var isAsserting: Bool {
      if case .asserting = self { return true }
      return false
    }
  }

  @TaskLocal package static var mode = Mode.live
  /// The trackers of ``track(_:)`` calls in effect in the current task.
  @TaskLocal static var active: [SharedChangeTracker] = []
  /// The tracker of the `_printChanges` printer running in the current task.
  @TaskLocal static var printing: SharedChangeTracker?

  private struct Change {
    let box: any SharedBoxProtocol
    /// The box's root value as of the last assertion (edited by the test's assertion closures).
    var snapshot: Any
  }

  private let lock = NSLock()
  private var changes: [ObjectIdentifier: Change] = [:]
  private var assertionWrote = false

  /// Creates a tracker that records nothing until it ``track(_:)``s.
  public init() {}

  /// Runs `body`, recording every shared value it changes (and the tasks it starts change) with
  /// its value before the first change.
  public func track<Result>(_ body: () throws -> Result) rethrows -> Result {
    try Self.$active.withValue(Self.active + [self], operation: body)
  }

  /// Runs `body`, recording every shared value it changes, like ``track(_:)``.
  public func track<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
  ) async rethrows -> Result {
    try await Self.$active.withValue(Self.active + [self], operation: body, isolation: isolation)
  }

  /// Runs `body` with shared values as this tracker expects them: a changed value reads as it was
  /// before its change, `withLock` edits that expected value, and comparing a `Shared` with itself
  /// compares the expected value with the current one.
  public func assert<Result>(_ body: () throws -> Result) rethrows -> Result {
    try Self.$mode.withValue(.asserting(self), operation: body)
  }

  /// Whether a shared value was changed since the tracker was made or last ``reset()``.
  public var hasChanges: Bool { lock.withLock { !changes.isEmpty } }

  /// Forgets every recorded change: the current values become the expected ones.
  public func reset() { acceptAll() }

  public static func == (lhs: SharedChangeTracker, rhs: SharedChangeTracker) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// The tracker of the test store whose reducer or effect is running, if any.
  static var current: SharedChangeTracker? {
    @Dependency(\.sharedChangeTracker) var tracker
    return tracker
  }

  /// The root value `box` had as of the last assertion, if it changed since.
  func snapshot(of box: any SharedBoxProtocol) -> Any? {
    lock.withLock { changes[ObjectIdentifier(box)]?.snapshot }
  }

  /// Records `root` as the value before a change, unless a change of `box` is already recorded.
  func recordBeforeChange(_ box: any SharedBoxProtocol, root: Any) {
    lock.withLock {
      let id = ObjectIdentifier(box)
      if changes[id] == nil { changes[id] = Change(box: box, snapshot: root) }
    }
  }

  /// Replaces the expected value of `box` (an assertion's edit).
  func setExpected(_ box: any SharedBoxProtocol, root: Any) {
    lock.withLock {
      changes[ObjectIdentifier(box)] = Change(box: box, snapshot: root)
      assertionWrote = true
    }
  }

  /// Whether an assertion closure edited a shared value since the last ``acceptAll()``.
  package var didAssert: Bool { lock.withLock { assertionWrote } }

  /// Descriptions of the shared values changed since the last ``acceptAll()``, not yet asserted.
  package var unassertedChanges: [String] {
    let recorded = lock.withLock { Array(changes.values) }
    return recorded.compactMap { $0.box.describeChange(from: $0.snapshot) }
  }

  /// Marks every change as asserted: snapshots are dropped and the current values become expected.
  package func acceptAll() {
    lock.withLock {
      changes.removeAll()
      assertionWrote = false
    }
  }
}

/// Runs `body` with a new ``SharedChangeTracker`` tracking every shared value it changes.
///
/// ```swift
/// let count = Shared(0)
/// withSharedChangeTracking { tracker in
///   count.withLock { $0 += 1 }
///   tracker.assert {
///     count.withLock { $0 = 1 }   // the expected value
///     #expect(count == count)     // as expected
///   }
/// }
/// ```
public func withSharedChangeTracking<Result>(
  _ body: (SharedChangeTracker) throws -> Result
) rethrows -> Result {
  let tracker = SharedChangeTracker()
  return try tracker.track { try body(tracker) }
}

/// Runs `body` with a new ``SharedChangeTracker`` tracking every shared value it changes, and the
/// tasks it starts change.
public func withSharedChangeTracking<Result>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: (SharedChangeTracker) async throws -> Result
) async rethrows -> Result {
  let tracker = SharedChangeTracker()
  return try await tracker.track(isolation: isolation) { try await body(tracker) }
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
