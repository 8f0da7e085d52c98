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
    clock: any Clock<Duration>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    debounce(
      id: id, for: duration, clock: clock,
      origin: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// ``debounce(id:for:clock:fileID:filePath:line:column:)``, its wait named by `origin` in failure
  /// messages ("an effect created at search.lua:12 is still running"): for hosts that describe
  /// effects in another language.
  public func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>,
    origin: EffectOrigin
  ) -> Self {
    // NB: An existential rather than a generic clock: the `any Clock<Duration>` of
    //     `@Dependency(\.continuousClock)` is not opened for a generic parameter in every context (a
    //     closure inside `onChange`, for one), and a concrete clock converts to it anywhere.
    switch self.operation {
    case .none: return .none
    case let .send(action):
      // NB: one task that waits, then sends: a pending debounce is one effect running, not a wait
      //     and the concatenation around it.
      return Self.run(origin: origin) { send in
        guard (try? await clock.sleep(for: duration)) != nil else { return }
        await send(action)
      }
      .cancellable(id: id, cancelInFlight: true)
    default:
      return Self.concatenate(
        .run(origin: origin) { _ in _ = try? await clock.sleep(for: duration) },
        self
      )
      .cancellable(id: id, cancelInFlight: true)
    }
  }
}
