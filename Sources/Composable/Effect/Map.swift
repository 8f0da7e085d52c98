extension Effect {
  /// Transforms the actions this effect sends.
  ///
  /// Composition operators use it to lift a child's effects into its parent:
  ///
  /// ```swift
  /// return Child().reduce(into: &state.child, action: childAction)
  ///   .map(Action.child)
  /// ```
  ///
  /// Cancellation ids are untouched: a mapped effect is cancelled by the same id.
  public func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    switch self.operation {
    case .none:
      return .none
    case let .send(action):
      return .send(transform(action))
    case let .run(run):
      let operation = run.operation
      return Effect<NewAction>(
        .run(
          Effect<NewAction>.Run(priority: run.priority, origin: run.origin) { send in
            await operation(Send { action in send.send(transform(action)) })
          }
        )
      )
    case let .merge(effects):
      return Effect<NewAction>(.merge(effects.map { $0.map(transform) }))
    case let .concatenate(effects):
      return Effect<NewAction>(.concatenate(effects.map { $0.map(transform) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect<NewAction>(.cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform)))
    case let .cancel(id):
      return Effect<NewAction>(.cancel(id: id))
    case let .throttle(throttle):
      return Effect<NewAction>(.throttle(throttle.map(transform)))
    case let .scoped(component, effect):
      return Effect<NewAction>(.scoped(component: component, effect.map(transform)))
    }
  }
}
