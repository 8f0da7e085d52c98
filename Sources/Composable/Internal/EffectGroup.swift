import ConcurrencyExtras

/// The effects of one `send` and of everything they led to: the effects of actions those effects
/// sent, and so on. Awaiting or cancelling a `send`'s task covers the whole tree, as in TCA.
///
/// Tasks join the group as the tree grows and leave it when they end, so a tree that lives for
/// hours (a timer whose ticks start work) holds only the tasks still running.
@usableFromInline
package final class EffectGroup: Sendable {
  private let state = LockIsolated(State())

  private struct State {
    var tasks: [Int: Task<Void, Never>] = [:]
    var hadTasks = false
    var isCancelled = false
    /// Whether a task of the tree ended without being cancelled.
    var anyRanToEnd = false
  }

  @usableFromInline
  package init() {}

  /// Adds a running task, numbered `id` by its runtime. A task joining a cancelled tree is cancelled
  /// at once.
  func add(_ task: Task<Void, Never>, id: Int) {
    let cancelled = state.withValue { state in
      state.tasks[id] = task
      state.hadTasks = true
      return state.isCancelled
    }
    if cancelled { task.cancel() }
  }

  /// Removes a task that ended.
  func remove(_ id: Int) {
    state.withValue { state in
      guard let task = state.tasks.removeValue(forKey: id) else { return }
      if !task.isCancelled { state.anyRanToEnd = true }
    }
  }

  /// Whether any effect of the tree started a task.
  package var hasTasks: Bool { state.value.hadTasks }

  /// Cancels every task of the tree, and any that joins it later.
  package func cancel() {
    let tasks = state.withValue { state in
      state.isCancelled = true
      return Array(state.tasks.values)
    }
    for task in tasks { task.cancel() }
  }

  /// Whether the tree was cancelled as a whole, or every task of it was (`true` for a tree that
  /// started none).
  package var isCancelled: Bool {
    let state = self.state.value
    return state.isCancelled || (!state.anyRanToEnd && state.tasks.values.allSatisfy(\.isCancelled))
  }

  /// Waits until every task of the tree has finished, including tasks that join while it waits.
  /// Cancelling the waiting task cancels the tree.
  package func finish() async {
    await withTaskCancellationHandler {
      while let (id, task) = state.withValue({ $0.tasks.first.map { ($0.key, $0.value) } }) {
        await task.value
        // NB: The runtime removes a task as it ends; this covers a task that ended otherwise.
        remove(id)
      }
    } onCancel: {
      cancel()
    }
  }
}
