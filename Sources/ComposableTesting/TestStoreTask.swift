import Composable

/// The effects started by one ``TestStore/send(_:assert:fileID:filePath:line:column:)``.
///
/// ```swift
/// let task = await store.send(.startTimer)
/// await clock.advance(by: .seconds(1))
/// await store.receive(\.tick) { $0.seconds = 1 }
/// await task.cancel()
/// ```
@MainActor
public struct TestStoreTask {
  let tasks: [Task<Void, Never>]
  weak var store: AnyObject?

  init(tasks: [Task<Void, Never>], store: AnyObject) {
    self.tasks = tasks
    self.store = store
  }

  /// Cancels the effects and waits until they have stopped.
  public func cancel() async {
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }

  /// Waits for the effects to finish.
  public func finish() async {
    for task in tasks { await task.value }
  }

  /// Whether all the effects have been cancelled (`true` when the action started none).
  public var isCancelled: Bool { tasks.allSatisfy(\.isCancelled) }
}
