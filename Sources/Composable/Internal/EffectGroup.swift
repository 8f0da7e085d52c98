import ConcurrencyExtras

/// The effects of one `send` and of everything they led to: the effects of actions those effects
/// sent, and so on. Awaiting or cancelling a `send`'s task covers the whole tree, as in TCA.
///
/// Tasks join the group as the tree grows, so ``finish()`` re-reads the list until it has awaited
/// every member, including those that joined while it waited.
@usableFromInline
package final class EffectGroup: Sendable {
  private let state = LockIsolated(State())

  private struct State {
    var tasks: [Task<Void, Never>] = []
    var isCancelled = false
  }

  @usableFromInline
  package init() {}

  /// Adds a task to the tree. A task joining a cancelled tree is cancelled at once.
  func add(_ task: Task<Void, Never>) {
    let cancelled = state.withValue { state in
      state.tasks.append(task)
      return state.isCancelled
    }
    if cancelled { task.cancel() }
  }

  func add(_ tasks: [Task<Void, Never>]) {
    for task in tasks { add(task) }
  }

  /// Whether any effect of the tree started a task.
  package var hasTasks: Bool { !state.value.tasks.isEmpty }

  /// Cancels every task of the tree, and any that joins it later.
  package func cancel() {
    let tasks = state.withValue { state in
      state.isCancelled = true
      return state.tasks
    }
    for task in tasks { task.cancel() }
  }

  /// Whether the tree was cancelled (`true` as well when every task in it was cancelled).
  package var isCancelled: Bool {
    let state = self.state.value
    return state.isCancelled || state.tasks.allSatisfy(\.isCancelled)
  }

  /// Waits until every task of the tree has finished, including tasks that join while it waits.
  /// Cancelling the waiting task cancels the tree.
  package func finish() async {
    await withTaskCancellationHandler {
      var index = 0
      while true {
        let position = index
        guard let task = state.withValue({ position < $0.tasks.count ? $0.tasks[position] : nil }) else { return }
        await task.value
        index += 1
      }
    } onCancel: {
      cancel()
    }
  }
}
