/// Where an effect's work runs: its store's cancellation ids, and the feature instance (the scope
/// path) that returned the effect. Set for the duration of every `Effect.run` operation, so that
/// `Task.cancel(id:)` and `withTaskCancellation(id:)` inside it use the store's ids.
struct EffectContext: Sendable {
  let book: CancellationBook
  let path: [AnyEffectID]

  @TaskLocal static var current: EffectContext?

  /// Ids used outside any store's effect (plain async code) share this book.
  static let detached = EffectContext(book: CancellationBook(), path: [])

  /// The context of the running effect, or the detached one.
  static var resolved: EffectContext { current ?? detached }
}
