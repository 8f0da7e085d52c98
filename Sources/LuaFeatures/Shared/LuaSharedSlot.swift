import Composable
import Dependencies
import Foundation
import LuaBridge

/// One shared value and a count of its changes, which instances compare with the count they last
/// saw to know when to refresh their state.
final class LuaSharedSlot: @unchecked Sendable {
  let shared: Shared<LuaValue>
  /// The `lunar.shared` key, for messages.
  let key: String
  /// Where the declared default has lists: an empty table written there is the empty list.
  let shape: LuaArrayShape?
  private let lock = NSLock()
  private var changes = 0
  private var stopObserving: (@Sendable () -> Void)?

  init(_ shared: Shared<LuaValue>, key: String, shape: LuaArrayShape?) {
    self.shared = shared
    self.key = key
    self.shape = shape
    // NB: observes every writer (other instances, Swift code with the same key, effects).
    stopObserving = shared.observeSynchronously { [weak self] _ in self?.bump() }
  }

  deinit { stopObserving?() }

  private func bump() { lock.withLock { changes += 1 } }

  /// How many times the value changed since this slot was made.
  var version: Int { lock.withLock { changes } }

  /// The current value.
  var value: LuaValue { shared.value }

  /// Replaces the value, if it is saved (for a `"file"` value); returns the version that includes
  /// this change. An empty table where the declared default has a list is stored as the empty
  /// list (``LuaValue/conformingArrays(to:)``), so it is saved as `[]`.
  ///
  /// - Parameter field: The state field written, which errors name (`state.settings.ratio`).
  /// - Throws: A message naming the key, the file and the problem; the value is unchanged.
  func write(_ value: LuaValue, field: LuaString) throws(LuaSharedWriteError) -> Int {
    let value = shape.map(value.conformingArrays(to:)) ?? value
    do {
      try withDependencies {
        $0.sharedChangeTracker = nil
      } operation: {
        try shared.withLockIfSaved { $0 = value }
      }
    } catch {
      throw LuaSharedWriteError(error, key: key, field: field)
    }
    return version
  }
}

/// A change to a `lunar.shared` value that was refused because it could not be saved.
struct LuaSharedWriteError: Error, CustomStringConvertible {
  let description: String

  init(_ error: any Error, key: String, field: LuaString) {
    let name = "lunar.shared(\"\(key)\")"
    guard let error = error as? SharedPersistenceError else {
      description = "\(name) was not changed: \(error)"
      return
    }
    let file = error.url?.path ?? "its file"
    switch error.kind {
    case .unencodable:
      if let json = error.cause as? LuaJSONError {
        let path = LuaPath(root: "state", components: [.key(field.lossyString)] + json.path.components)
        description = "\(name) cannot be saved to \(file): \(path): \(json.explanation)"
      } else {
        description = "\(name) cannot be saved to \(file): \(error.cause)"
      }
    case .notLoaded:
      let reason = (error.cause as? SharedPersistenceError).map { "\($0.cause)" } ?? "\(error.cause)"
      description = """
        \(name) cannot be changed: \(file) could not be read when it was loaded (\(reason)), and saving \
        would overwrite it. Fix or move the file, then restart.
        """
    case .unwritable:
      description = "\(name) could not be saved to \(file): \(error.cause)"
    case .unreadable:
      description = "\(name) was not changed: \(error)"
    }
  }
}
