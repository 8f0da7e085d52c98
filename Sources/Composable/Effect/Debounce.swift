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
  public func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>
  ) -> Self {
    // NB: An existential rather than a generic clock: the `any Clock<Duration>` of
    //     `@Dependency(\.continuousClock)` is not opened for a generic parameter in every context (a
    //     closure inside `onChange`, for one), and a concrete clock converts to it anywhere.
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
