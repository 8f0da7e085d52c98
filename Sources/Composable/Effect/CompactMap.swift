extension Effect {
  /// Transforms the actions this effect sends, dropping those `transform` turns into `nil`.
  ///
  /// For a feature whose actions are converted from another form, where one may fail to convert
  /// (and is reported where it fails rather than sent):
  ///
  /// ```swift
  /// return luaEffect.compactMap { value in try? LuaDecoder().decode(Action.self, from: value) }
  /// ```
  ///
  /// Cancellation ids are untouched, as with ``map(_:)``.
  public func compactMap<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction?
  ) -> Effect<NewAction> {
    switch self.operation {
    case .none:
      return .none
    case let .send(action):
      return transform(action).map { .send($0) } ?? .none
    case let .run(run):
      let operation = run.operation
      return Effect<NewAction>(
        .run(
          Effect<NewAction>.Run(priority: run.priority, origin: run.origin) { send in
            await operation(Send { action in if let mapped = transform(action) { send.send(mapped) } })
          }
        )
      )
    case let .merge(effects):
      return Effect<NewAction>(.merge(effects.map { $0.compactMap(transform) }))
    case let .concatenate(effects):
      return Effect<NewAction>(.concatenate(effects.map { $0.compactMap(transform) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect<NewAction>(.cancellable(id: id, cancelInFlight: cancelInFlight, effect.compactMap(transform)))
    case let .cancel(id):
      return Effect<NewAction>(.cancel(id: id))
    case let .throttle(throttle):
      return Effect<NewAction>(
        .throttle(.init(id: throttle.id, latest: throttle.latest, effect: throttle.effect.compactMap(transform), window: throttle.window)))
    case let .scoped(component, effect):
      return Effect<NewAction>(.scoped(component: component, effect.compactMap(transform)))
    }
  }
}
