import ConcurrencyExtras
import IssueReporting

/// Runs effects for one store: starts their tasks, files them by cancellation id, and cancels them.
///
/// Each store (and each test store) owns one runtime, so cancellation ids never leak between stores.
/// Everything here happens on the main actor; the work inside `Effect.run` runs wherever Swift
/// concurrency puts it and comes back through `Send`.
@MainActor
@usableFromInline
package final class EffectRuntime<Action: Sendable> {
  /// Where actions produced by effects go, with the tree (the `send`) they belong to.
  package typealias Sink = @MainActor @Sendable (_ action: Action, _ group: EffectGroup) -> Void
  /// Where the actions of one effect go: the sink, bound to the effect's tree.
  typealias Deliver = @MainActor @Sendable (Action) -> Void

  /// A task started for an effect, as seen by tests ("an effect created at … is still running").
  package struct InFlight: Sendable {
    package let origin: EffectOrigin?
  }

  private var nextID = 0
  private var running: [Int: Running] = [:]
  private var throttles: [CancelKey: ThrottleState] = [:]
  private let sink: Sink
  /// The store's cancellation ids, shared with `Task.cancel(id:)` inside its effects.
  package let book = CancellationBook()

  package init(sink: @escaping Sink) {
    self.sink = sink
  }

  /// The tracked effects still running, oldest first.
  package var inFlight: [InFlight] {
    running.filter(\.value.isTracked).sorted { $0.key < $1.key }.map { InFlight(origin: $0.value.origin) }
  }

  /// Whether no tracked effect is running (effects passed to ``untrackAll()`` do not count).
  package var isIdle: Bool { !running.values.contains(where: \.isTracked) }

  /// Whether any effect is running, tracked or not: whether an action may still arrive.
  package var hasRunningEffects: Bool { !running.isEmpty }

  /// How many effect tasks are running.
  package var runningCount: Int { running.count }

  /// Starts `effect`, produced by `cause`, as part of `group`.
  @usableFromInline
  package func start(_ effect: Effect<Action>, group: EffectGroup, cause: Action? = nil) {
    let sink = self.sink
    let deliver: Deliver = { sink($0, group) }
    var tasks: [Task<Void, Never>] = []
    let firstID = nextID
    start(effect, path: [], keys: [], deliver: deliver, cause: cause, into: &tasks)
    guard !tasks.isEmpty else { return }
    // NB: The tasks this call started are the ones numbered from `firstID` on that are still in
    //     the books; those started directly (not by a concatenation later) are in `tasks`.
    for id in firstID..<nextID {
      guard let entry = running[id], tasks.contains(where: { $0 == entry.task }) else { continue }
      running[id]?.group = group
      group.add(entry.task, id: id)
    }
  }

  /// Cancels every running effect, as when a store goes away.
  package func cancelAll() {
    for (_, entry) in running { entry.task.cancel() }
    book.cancelAll()
    for (_, state) in throttles { state.pending?.cancel() }
    throttles.removeAll()
  }

  /// Stops counting the effects running now: they keep running and may still send actions, but
  /// ``isIdle`` and ``inFlight`` no longer include them.
  package func untrackAll() {
    for id in running.keys { running[id]?.isTracked = false }
  }

  // MARK: - Starting

  private func start(
    _ effect: Effect<Action>,
    path: [AnyEffectID],
    keys: [CancelKey],
    deliver: @escaping Deliver,
    cause: Action?,
    into tasks: inout [Task<Void, Never>]
  ) {
    switch effect.operation {
    case .none:
      return

    case let .send(action):
      deliver(action)

    case let .run(run):
      tasks.append(startRun(run, path: path, keys: keys, deliver: deliver, cause: cause))

    case let .merge(effects):
      for effect in effects {
        start(effect, path: path, keys: keys, deliver: deliver, cause: cause, into: &tasks)
      }

    case let .concatenate(effects):
      // NB: A member that starts no task (`.send`, `.cancel`) is done as soon as it has started: run
      //     such leading members now, so that `.concatenate(.send(a), .send(b))` is reduced before
      //     `send` returns, as `.send` alone is. Only the rest waits in a task.
      var next = effects.startIndex
      var members: [Task<Void, Never>] = []
      while members.isEmpty, next < effects.endIndex {
        members = startMember(effects[next], path: path, keys: keys, deliver: deliver, cause: cause)
        next += 1
      }
      guard !members.isEmpty else { return }
      let rest = effects[next...]
      let origin = effects.lazy.compactMap(\.firstOrigin).first
      tasks.append(
        track(origin: origin, keys: keys, priority: nil) { @MainActor [weak self] in
          await Self.wait(for: members)
          for effect in rest {
            if Task.isCancelled { return }
            guard
              let members = self?.startMember(effect, path: path, keys: keys, deliver: deliver, cause: cause)
            else { return }
            await Self.wait(for: members)
          }
        }
      )

    case let .cancellable(id, cancelInFlight, effect):
      if cancelInFlight { cancel(CancelKey(path: path, id: id)) }
      start(
        effect, path: path, keys: keys + CancelKey.reaching(id, from: path), deliver: deliver, cause: cause,
        into: &tasks
      )

    case let .cancel(id):
      cancel(CancelKey(path: path, id: id))

    case let .throttle(throttle):
      startThrottled(throttle, path: path, keys: keys, deliver: deliver, cause: cause, into: &tasks)

    case let .scoped(component, effect):
      let key = CancelKey(path: path, id: AnyEffectID(ScopeCancelID(component: component)))
      start(effect, path: path + [component], keys: keys + [key], deliver: deliver, cause: cause, into: &tasks)
    }
  }

  private func startRun(
    _ run: Effect<Action>.Run,
    path: [AnyEffectID],
    keys: [CancelKey],
    deliver: @escaping Deliver,
    cause: Action?
  ) -> Task<Void, Never> {
    let isCompleted = LockIsolated(false)
    let origin = run.origin
    let send = Send<Action> { action in
      if isCompleted.value { Self.reportSendAfterCompletion(action, cause: cause, origin: origin) }
      deliver(action)
    }
    let operation = run.operation
    let context = EffectContext(book: book, path: path)
    return track(origin: origin, keys: keys, priority: run.priority) {
      await EffectContext.$current.withValue(context) { await operation(send) }
      isCompleted.setValue(true)
    }
  }

  private static func reportSendAfterCompletion(_ action: Action, cause: Action?, origin: EffectOrigin) {
    reportIssue(
      """
      An action was sent from a completed effect:

        Action:
          \(issueDescription(action))

        Effect created at \(origin)\(cause.map { ", returned for:\n    \(issueDescription($0))" } ?? "")

      The "send" of an "Effect.run" was used after its operation had returned, typically from a \
      "Task" started inside it. Keep the operation running until it is done sending: await the \
      work instead of starting an unstructured task.
      """,
      fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
    )
  }

  private func startMember(
    _ effect: Effect<Action>,
    path: [AnyEffectID],
    keys: [CancelKey],
    deliver: @escaping Deliver,
    cause: Action?
  ) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    start(effect, path: path, keys: keys, deliver: deliver, cause: cause, into: &tasks)
    return tasks
  }

  /// Waits for the tasks of one member of a concatenation, cancelling them if the concatenation is.
  private static func wait(for members: [Task<Void, Never>]) async {
    await withTaskCancellationHandler {
      for member in members { await member.value }
    } onCancel: {
      for member in members { member.cancel() }
    }
  }

  /// Starts a task and keeps it in the books until it ends.
  private func track(
    origin: EffectOrigin?,
    keys: [CancelKey],
    priority: TaskPriority?,
    operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let id = nextID
    nextID += 1
    // NB: The task body runs on the main actor, so it cannot end before it is registered below.
    let task = Task(priority: priority) { @MainActor in
      await operation()
      self.finished(id)
    }
    running[id] = Running(task: task, origin: origin, keys: keys)
    book.register(id, keys: keys) { task.cancel() }
    return task
  }

  private func finished(_ id: Int) {
    guard let entry = running.removeValue(forKey: id) else { return }
    book.unregister(id, keys: entry.keys)
    entry.group?.remove(id)
  }

  private func cancel(_ key: CancelKey) {
    book.cancel(key)
  }

  // MARK: - Throttling

  private func startThrottled(
    _ throttle: Effect<Action>.Throttle,
    path: [AnyEffectID],
    keys: [CancelKey],
    deliver: @escaping Deliver,
    cause: Action?,
    into tasks: inout [Task<Void, Never>]
  ) {
    let key = CancelKey(path: path, id: throttle.id)
    let state = throttles[key] ?? ThrottleState()
    throttles[key] = state
    let gate: Deliver = { [weak self] action in
      self?.throttled(action, state: state, throttle: throttle, keys: keys + [key], deliver: deliver)
    }
    start(throttle.effect, path: path, keys: keys, deliver: gate, cause: cause, into: &tasks)
  }

  private func throttled(
    _ action: Action,
    state: ThrottleState,
    throttle: Effect<Action>.Throttle,
    keys: [CancelKey],
    deliver: @escaping Deliver
  ) {
    guard let mark = state.mark, !mark.isOpen() else {
      state.mark = throttle.window.start()
      state.held = nil
      state.pending?.cancel()
      state.pending = nil
      deliver(action)
      return
    }
    // NB: A pending release cancelled through the throttle's id (or with the store) never runs: drop
    //     what it held, and schedule a new release for this action instead of waiting on it forever.
    if let pending = state.pending, pending.isCancelled {
      state.pending = nil
      state.held = nil
    }
    if throttle.latest || state.held == nil { state.held = action }
    guard state.pending == nil else { return }
    state.pending = track(origin: nil, keys: keys, priority: nil) { [weak self] in
      do { try await mark.waitUntilOpen() } catch { return }
      await self?.releaseHeld(state: state, throttle: throttle, deliver: deliver)
    }
  }

  private func releaseHeld(state: ThrottleState, throttle: Effect<Action>.Throttle, deliver: Deliver) {
    state.pending = nil
    guard !Task.isCancelled, let held = state.held as? Action else { return }
    state.held = nil
    state.mark = throttle.window.start()
    deliver(held)
  }
}

private struct Running {
  let task: Task<Void, Never>
  let origin: EffectOrigin?
  let keys: [CancelKey]
  /// Whether tests still wait for it (see ``EffectRuntime/untrackAll()``).
  var isTracked = true
  /// The tree (the `send`) it belongs to, when it was started directly for it.
  var group: EffectGroup?
}

@MainActor
private final class ThrottleState {
  var mark: ThrottleMark?
  var held: Any?
  var pending: Task<Void, Never>?
}

extension Effect {
  /// The origin of the first `run` in this effect, for messages about concatenations (and for a
  /// host showing where an action's effects were created).
  package var firstOrigin: EffectOrigin? {
    switch operation {
    case .none, .send, .cancel: return nil
    case let .run(run): return run.origin
    case let .merge(effects), let .concatenate(effects): return effects.lazy.compactMap(\.firstOrigin).first
    case let .cancellable(_, _, effect), let .scoped(_, effect): return effect.firstOrigin
    case let .throttle(throttle): return throttle.effect.firstOrigin
    }
  }
}
