extension Effect {
  /// Delays this effect until `duration` has passed without another effect being debounced under `id`.
  ///
  /// Each new debounced effect with the same id cancels the waiting one, so only the last of a burst
  /// runs:
  ///
  /// ```swift
  /// case let .queryChanged(query):
  ///   state.query = query
  ///   return .send(.search(query))
  ///     .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  ///
  /// > Important: Pass the clock from a dependency (`@Dependency(\.continuousClock)`), so that tests can
  /// > use a `TestClock` and advance time instead of waiting.
  public func debounce<C: Clock>(
    id: some Hashable & Sendable,
    for duration: C.Duration,
    clock: C
  ) -> Self {
    switch self.operation {
    case .none: return .none
    default:
      return Self.concatenate(
        .run { _ in try await clock.sleep(for: duration) },
        self
      )
      .cancellable(id: id, cancelInFlight: true)
    }
  }
}
