import Dispatch
import LuaBridge
import Synchronization

/// A state that is a view of a feature's resident table: read from the VM the first time its value
/// is needed, then kept.
///
/// Its replica settles (reads) it before the resident table changes in any way its holders could
/// see, so every older state keeps the value it had (see ``LuaStateReplica``, invariant 3).
final class ResidentView: Sendable {
  private struct Contents {
    weak var replica: LuaStateReplica?
    var value: LuaValue?
  }

  private let contents: Mutex<Contents>

  @MainActor
  init(of replica: LuaStateReplica) {
    contents = Mutex(Contents(replica: replica, value: nil))
  }

  /// Whether the value was read (by a reader, or by the instance settling it).
  var isRead: Bool {
    contents.withLock { $0.value != nil }
  }

  /// The state's value; the first read reads the resident table, on the main actor.
  var value: LuaValue {
    if let value = contents.withLock({ $0.value }) { return value }
    // NB: the main actor runs on the main thread, or (in some test harnesses) on a thread that
    //     drains the main queue: on either, `main.sync` would wait for itself.
    if (MainThread.isCurrent && MainThread.runsMainActor) || Self.onMainQueue {
      return MainActor.assumeIsolated { settle() }
    }
    return DispatchQueue.main.sync { MainActor.assumeIsolated { settle() } }
  }

  private static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the code runs as the main queue's work.
  private static var onMainQueue: Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
  }

  /// Reads the resident table now, if not yet read, and keeps its value; returns it. `owner`, the
  /// view's own replica, reads for it when the replica settles it (from its deinit too, where
  /// the view's weak reference to it is already gone).
  @MainActor
  @discardableResult
  func settle(from owner: LuaStateReplica? = nil) -> LuaValue {
    let replica = contents.withLock { contents -> LuaStateReplica? in
      contents.value == nil ? owner ?? contents.replica : nil
    }
    guard let replica else {
      // Read already; or its replica is gone, which settles its current view first.
      return contents.withLock { $0.value } ?? .nil
    }
    let read = replica.readResident()
    return contents.withLock { contents in
      if let value = contents.value { return value }
      contents.value = read
      return read
    }
  }
}
