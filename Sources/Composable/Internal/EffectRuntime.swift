/// Runs effects for one store: starts their tasks, tracks them by cancellation id, and cancels them.
///
/// Each store (and each test store) owns one runtime, so cancellation ids never leak between stores.
/// Everything here happens on the main actor; the work inside `Effect.run` runs wherever Swift
/// concurrency puts it and comes back through `Send`.
@MainActor
@usableFromInline
package final class EffectRuntime<Action: Sendable> {
  /// Where actions produced by effects go.
  package typealias Sink = @MainActor @Sendable (Action) -> Void

  /// A task started for an effect, as seen by tests ("an effect created at … is still running").
  package struct InFlight: Sendable {
    package let origin: EffectOrigin?
  }

  private var nextID = 0
  private var running: [Int: Running] = [:]
  private var registrations: [CancelKey: Set<Int>] = [:]
  private var throttles: [CancelKey: ThrottleState] = [:]
  private let sink: Sink

  /// Called whenever the last running effect finishes.
  package var onIdle: (@MainActor () -> Void)?

  package init(sink: @escaping Sink) {
    self.sink = sink
  }

  /// The effects still running, oldest first.
  package var inFlight: [InFlight] {
    running.sorted { $0.key < $1.key }.map { InFlight(origin: $0.value.origin) }
  }

  package var isIdle: Bool { running.isEmpty }

  /// How many effect tasks are running.
  package var runningCount: Int { running.count }

  /// Starts `effect` and returns the tasks it started, so a caller can await or cancel them.
  @discardableResult
  @usableFromInline
  package func start(_ effect: Effect<Action>) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    start(effect, path: [], keys: [], sink: sink, into: &tasks)
    return tasks
  }

  /// Cancels every running effect, as when a store goes away.
  package func cancelAll() {
    for (_, entry) in running { entry.task.cancel() }
    registrations.removeAll()
    for (_, state) in throttles { state.pending?.cancel() }
    throttles.removeAll()
  }

  // MARK: - Starting

  private func start(
    _ effect: Effect<Action>,
    path: [AnyEffectID],
    keys: [CancelKey],
    sink: @escaping Sink,
    into tasks: inout [Task<Void, Never>]
  ) {
    switch effect.operation {
    case .none:
      return

    case let .send(action):
      sink(action)

    case let .run(run):
      let send = Send<Action>(send: sink)
      let operation = run.operation
      tasks.append(
        track(origin: run.origin, keys: keys, priority: run.priority) { await operation(send) }
      )

    case let .merge(effects):
      for effect in effects {
        start(effect, path: path, keys: keys, sink: sink, into: &tasks)
      }

    case let .concatenate(effects):
      // NB: A member that starts no task (`.send`, `.cancel`) is done as soon as it has started: run
      //     such leading members now, so that `.concatenate(.send(a), .send(b))` is reduced before
      //     `send` returns, as `.send` alone is. Only the rest waits in a task.
      var next = effects.startIndex
      var members: [Task<Void, Never>] = []
      while members.isEmpty, next < effects.endIndex {
        members = startMember(effects[next], path: path, keys: keys, sink: sink)
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
            guard let members = self?.startMember(effect, path: path, keys: keys, sink: sink) else { return }
            await Self.wait(for: members)
          }
        }
      )

    case let .cancellable(id, cancelInFlight, effect):
      let key = CancelKey(path: path, id: id)
      if cancelInFlight { cancel(key) }
      start(effect, path: path, keys: keys + [key], sink: sink, into: &tasks)

    case let .cancel(id):
      cancel(CancelKey(path: path, id: id))

    case let .throttle(throttle):
      startThrottled(throttle, path: path, keys: keys, sink: sink, into: &tasks)

    case let .scoped(component, effect):
      let key = CancelKey(path: path, id: AnyEffectID(ScopeCancelID(component: component)))
      start(effect, path: path + [component], keys: keys + [key], sink: sink, into: &tasks)
    }
  }

  private func startMember(
    _ effect: Effect<Action>,
    path: [AnyEffectID],
    keys: [CancelKey],
    sink: @escaping Sink
  ) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    start(effect, path: path, keys: keys, sink: sink, into: &tasks)
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
    for key in keys { registrations[key, default: []].insert(id) }
    return task
  }

  private func finished(_ id: Int) {
    guard let entry = running.removeValue(forKey: id) else { return }
    for key in entry.keys {
      registrations[key]?.remove(id)
      if registrations[key]?.isEmpty == true { registrations[key] = nil }
    }
    if running.isEmpty { onIdle?() }
  }

  private func cancel(_ key: CancelKey) {
    if let ids = registrations.removeValue(forKey: key) {
      for id in ids { running[id]?.task.cancel() }
    }
  }

  // MARK: - Throttling

  private func startThrottled(
    _ throttle: Effect<Action>.Throttle,
    path: [AnyEffectID],
    keys: [CancelKey],
    sink: @escaping Sink,
    into tasks: inout [Task<Void, Never>]
  ) {
    let key = CancelKey(path: path, id: throttle.id)
    let state = throttles[key] ?? ThrottleState()
    throttles[key] = state
    let gate: Sink = { [weak self] action in
      self?.throttled(action, state: state, throttle: throttle, keys: keys + [key], sink: sink)
    }
    start(throttle.effect, path: path, keys: keys, sink: gate, into: &tasks)
  }

  private func throttled(
    _ action: Action,
    state: ThrottleState,
    throttle: Effect<Action>.Throttle,
    keys: [CancelKey],
    sink: @escaping Sink
  ) {
    guard let mark = state.mark, !mark.isOpen() else {
      state.mark = throttle.window.start()
      state.held = nil
      state.pending?.cancel()
      state.pending = nil
      sink(action)
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
      await self?.releaseHeld(state: state, throttle: throttle, sink: sink)
    }
  }

  private func releaseHeld(state: ThrottleState, throttle: Effect<Action>.Throttle, sink: Sink) {
    state.pending = nil
    guard !Task.isCancelled, let held = state.held as? Action else { return }
    state.held = nil
    state.mark = throttle.window.start()
    sink(held)
  }
}

/// A cancellation id within the feature instance (the scope path) that used it.
struct CancelKey: Hashable, Sendable {
  let path: [AnyEffectID]
  let id: AnyEffectID
}

private struct Running {
  let task: Task<Void, Never>
  let origin: EffectOrigin?
  let keys: [CancelKey]
}

@MainActor
private final class ThrottleState {
  var mark: ThrottleMark?
  var held: Any?
  var pending: Task<Void, Never>?
}

extension Effect {
  /// The origin of the first `run` in this effect, for messages about concatenations.
  var firstOrigin: EffectOrigin? {
    switch operation {
    case .none, .send, .cancel: return nil
    case let .run(run): return run.origin
    case let .merge(effects), let .concatenate(effects): return effects.lazy.compactMap(\.firstOrigin).first
    case let .cancellable(_, _, effect), let .scoped(_, effect): return effect.firstOrigin
    case let .throttle(throttle): return throttle.effect.firstOrigin
    }
  }
}
