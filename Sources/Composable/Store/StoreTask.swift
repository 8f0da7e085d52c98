/// The effects started by one ``Store/send(_:)``, and everything they led to: await them or cancel
/// them.
///
/// ```swift
/// await store.send(.refresh).finish()   // wait until the refresh, and what it caused, is done
/// ```
///
/// The task covers the whole tree of work: the effects of the action, the effects of actions those
/// effects sent, and so on. Cancelling it cancels all of them.
public struct StoreTask: Sendable {
  @usableFromInline let group: EffectGroup?

  @usableFromInline
  init(group: EffectGroup?) {
    self.group = group
  }

  /// Whether the action started any asynchronous work (a `.none` or `.send` effect starts none).
  public var hasEffects: Bool { group?.hasTasks ?? false }

  /// Cancels the effects, and those of the actions they sent.
  public func cancel() {
    group?.cancel()
  }

  /// Waits until the effects, and those of the actions they sent, have finished. Cancelling the
  /// waiting task cancels them.
  ///
  /// > Important: Effects that never end (a timer, a stream of events) make this wait forever; cancel
  /// > them first.
  public func finish() async {
    await group?.finish()
  }

  /// Whether the effects were cancelled (`true` when the action started none).
  public var isCancelled: Bool {
    group?.isCancelled ?? true
  }
}
