extension Effect {
  /// Lets at most one action through per `duration` for `id`.
  ///
  /// The first action goes through at once. Actions arriving before `duration` has passed are held:
  /// when the window closes, the first held action (or the most recent one when `latest` is `true`) is
  /// sent, and a new window starts.
  ///
  /// ```swift
  /// case .scrolled:
  ///   return .send(.loadMore)
  ///     .throttle(id: CancelID.loadMore, for: .seconds(1), clock: clock, latest: true)
  /// ```
  ///
  /// The window is kept by the store running the effect, per feature instance.
  public func throttle(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>,
    latest: Bool
  ) -> Self {
    // NB: An existential clock, as in `debounce(id:for:clock:)`.
    switch self.operation {
    case .none: return .none
    default:
      return Self(
        .throttle(
          Throttle(id: AnyEffectID(id), latest: latest, effect: self, window: ThrottleWindow(clock: clock, duration: duration))
        )
      )
    }
  }

  @usableFromInline
  struct Throttle: Sendable {
    let id: AnyEffectID
    let latest: Bool
    let effect: Effect
    let window: ThrottleWindow

    func map<NewAction: Sendable>(
      _ transform: @escaping @Sendable (Action) -> NewAction
    ) -> Effect<NewAction>.Throttle {
      .init(id: id, latest: latest, effect: effect.map(transform), window: window)
    }
  }
}

/// A throttling window over some clock, with the clock's types erased.
@usableFromInline
struct ThrottleWindow: Sendable {
  /// Reads the clock now; the returned function tells how much of the window is left since then.
  let start: @Sendable () -> ThrottleMark

  init<C: Clock>(clock: C, duration: C.Duration) {
    self.start = {
      let opened = clock.now
      return ThrottleMark(
        isOpen: { opened.advanced(by: duration) <= clock.now },
        waitUntilOpen: { try await clock.sleep(until: opened.advanced(by: duration), tolerance: nil) }
      )
    }
  }
}

/// The moment an action went through a throttle.
@usableFromInline
struct ThrottleMark: Sendable {
  /// Whether the window has passed, so the next action may go through at once.
  let isOpen: @Sendable () -> Bool
  /// Waits until the window has passed.
  let waitUntilOpen: @Sendable () async throws -> Void
}
