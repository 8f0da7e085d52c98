extension Effect {
  /// Wraps the operation of every `run` in this effect, keeping the rest of its structure.
  func transformRuns(
    _ transform: @escaping @Sendable (
      _ operation: @escaping @Sendable (Send<Action>) async -> Void
    ) -> @Sendable (Send<Action>) async -> Void
  ) -> Self {
    switch operation {
    case .none, .send, .cancel:
      return self
    case let .run(run):
      return Self(.run(Run(priority: run.priority, origin: run.origin, operation: transform(run.operation))))
    case let .merge(effects):
      return Self(.merge(effects.map { $0.transformRuns(transform) }))
    case let .concatenate(effects):
      return Self(.concatenate(effects.map { $0.transformRuns(transform) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Self(.cancellable(id: id, cancelInFlight: cancelInFlight, effect.transformRuns(transform)))
    case let .throttle(throttle):
      return Self(.throttle(Throttle(id: throttle.id, latest: throttle.latest, effect: throttle.effect.transformRuns(transform), window: throttle.window)))
    case let .scoped(component, effect):
      return Self(.scoped(component: component, effect.transformRuns(transform)))
    }
  }
}
