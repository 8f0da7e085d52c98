/// The effects started by one ``Store/send(_:)``: await them or cancel them.
///
/// ```swift
/// await store.send(.refresh).finish()   // wait until the refresh's effects are done
/// ```
public struct StoreTask: Sendable {
  @usableFromInline let tasks: [Task<Void, Never>]

  @usableFromInline
  init(tasks: [Task<Void, Never>]) {
    self.tasks = tasks
  }

  /// Whether the action started any asynchronous work (a `.none` or `.send` effect starts none).
  public var hasEffects: Bool { !tasks.isEmpty }

  /// Cancels the effects.
  public func cancel() {
    for task in tasks { task.cancel() }
  }

  /// Waits until the effects have finished.
  ///
  /// > Important: Effects that never end (a timer, a stream of events) make this wait forever; cancel
  /// > them first.
  public func finish() async {
    for task in tasks { await task.value }
  }

  /// Whether every effect of the action was cancelled (`true` when it started none).
  public var isCancelled: Bool {
    tasks.allSatisfy(\.isCancelled)
  }
}
