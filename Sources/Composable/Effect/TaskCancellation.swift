/// Runs `operation` so that it can be cancelled by `id`, with `Task.cancel(id:)` or an effect's
/// `.cancel(id:)`.
///
/// Inside an effect, the id belongs to the store and feature instance that started the effect, as
/// ids of ``Effect/cancellable(id:cancelInFlight:)`` do: a reducer's `.cancel(id:)` with the same id
/// cancels the operation too.
///
/// ```swift
/// return .run { send in
///   try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
///     try await clock.sleep(for: .milliseconds(300))
///     await send(.results(try await api.search(query)))
///   }
/// }
/// ```
///
/// - Parameters:
///   - id: Any hashable value; an enum case per kind of work reads best.
///   - cancelInFlight: Cancel operations already running under `id` before this one starts.
///   - operation: The work; it sees `Task.isCancelled` and throws `CancellationError` from
///     cancellable calls once cancelled.
///
/// > Important: Outside a store's effect (in plain async code), ids are shared by all such code in
/// > the process.
public func withTaskCancellation<T: Sendable, Failure: Error>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws(Failure) -> T
) async throws(Failure) -> T {
  let context = EffectContext.resolved
  let id = AnyEffectID(id)
  if cancelInFlight { context.book.cancel(CancelKey(path: context.path, id: id)) }
  // NB: The operation runs in a task of its own, so that cancelling it by id leaves the caller's
  //     task (an effect that may do more afterwards) alone, as in TCA.
  let task = Task { try await operation() }
  let keys = CancelKey.reaching(id, from: context.path)
  let registration = context.book.makeID()
  context.book.register(registration, keys: keys) { task.cancel() }
  defer { context.book.unregister(registration, keys: keys) }
  do {
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  } catch {
    // NB: Only `operation` throws into the task, so the error is a `Failure`.
    throw error as! Failure
  }
}

extension Task where Success == Never, Failure == Never {
  /// Cancels the work running under `id`: effects made ``Effect/cancellable(id:cancelInFlight:)``
  /// and operations run with ``withTaskCancellation(id:cancelInFlight:operation:)``.
  ///
  /// Inside an effect it reaches the work of the same store started by the same feature instance or
  /// by its children, as ``Effect/cancel(id:)`` does; outside any effect, the work of plain async
  /// code.
  ///
  /// ```swift
  /// return .run { _ in
  ///   await analytics.track("stop")
  ///   Task.cancel(id: CancelID.timer)
  /// }
  /// ```
  ///
  /// > Tip: In a reducer, return `.cancel(id:)` instead: it needs no effect.
  public static func cancel(id: some Hashable & Sendable) {
    let context = EffectContext.resolved
    context.book.cancel(CancelKey(path: context.path, id: AnyEffectID(id)))
  }
}
