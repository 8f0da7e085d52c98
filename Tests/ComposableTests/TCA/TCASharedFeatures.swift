import Clocks
import Composable
import Dependencies
import Foundation

// Features written with `@Shared` properties, as TCA's shared-state tests write them.

struct SharedStats: Codable, Equatable, Sendable {
  var count = 0
}

struct SharedProfile: Equatable {
  @Shared var stats: SharedStats
}

/// Shared values in every position: a plain field, a nested shared profile, a delegate action
/// that changes shared state, and effects that change it.
struct SharedFeature: Reducer {
  struct State: Equatable {
    var count = 0
    @Shared var profile: SharedProfile
    @Shared var sharedCount: Int
    @Shared var stats: SharedStats
    @Shared var isOn: Bool

    init(
      count: Int = 0,
      profile: Shared<SharedProfile> = Shared(value: SharedProfile(stats: Shared(value: SharedStats()))),
      sharedCount: Shared<Int> = Shared(value: 0),
      stats: Shared<SharedStats> = Shared(value: SharedStats()),
      isOn: Shared<Bool> = Shared(value: false)
    ) {
      self.count = count
      self._profile = profile
      self._sharedCount = sharedCount
      self._stats = stats
      self._isOn = isOn
    }
  }

  enum Action: Equatable, Sendable {
    case didIncrementDelegate
    case incrementStats
    case incrementSharedInDelegate
    case longLivingEffect
    case request
    case sharedIncrement
    case toggleIsOn
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .didIncrementDelegate:
      state.count += 1
      state.$stats.withLock { $0.count += 1 }
      return .none
    case .incrementStats:
      state.profile.$stats.withLock { $0.count += 1 }
      state.$stats.withLock { $0.count += 1 }
      return .none
    case .incrementSharedInDelegate:
      return .send(.didIncrementDelegate)
    case .longLivingEffect:
      return .run { [sharedCount = state.$sharedCount, clock] _ in
        try await clock.sleep(for: .seconds(1))
        sharedCount.withLock { $0 += 1 }
      }
    case .request:
      return .run { send in await send(.sharedIncrement) }
    case .sharedIncrement:
      state.$sharedCount.withLock { $0 += 1 }
      return .none
    case .toggleIsOn:
      state.$isOn.withLock { $0.toggle() }
      return .none
    }
  }
}

/// A timer whose ticks are counted in shared state, by the reducer or by the effect.
struct SharedTimer: Reducer {
  struct State: Equatable {
    @Shared var count: Int
  }

  enum Action: Equatable, Sendable {
    case startTimer
    case stopTimer
    case timerTick
  }

  /// Whether the timer's effect counts the ticks itself (and stopping it sets the count to 42
  /// a second later), rather than the reducer.
  var effectCounts = false
  @Dependency(\.continuousClock) var clock
  enum CancelID { case timer }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .run { [count = state.$count, effectCounts, clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          if effectCounts { count.withLock { $0 += 1 } }
          await send(.timerTick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stopTimer:
      guard effectCounts else { return .cancel(id: CancelID.timer) }
      return .merge(
        .cancel(id: CancelID.timer),
        .run { [count = state.$count, clock] _ in
          try await clock.sleep(for: .seconds(1))
          count.withLock { $0 = 42 }
        }
      )
    case .timerTick:
      if !effectCounts { state.$count.withLock { $0 += 1 } }
      return .none
    }
  }
}

/// A counter kept under an in-memory key: every instance in one registry shares it.
struct InMemoryCounter: Reducer {
  struct State: Equatable {
    @Shared(.inMemory("count")) var count = 0
  }

  enum Action: Equatable, Sendable {
    case incrementButtonTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.$count.withLock { $0 += 1 }
    return .none
  }
}

/// Three counters: two in the store's registry, one made in a registry of its own.
struct InMemorySiblings: Reducer {
  struct State: Equatable {
    var child1 = InMemoryCounter.State()
    var child2 = InMemoryCounter.State()
    var child3 = withDependencies {
      $0.sharedRegistry = SharedRegistry()
    } operation: {
      InMemoryCounter.State()
    }
  }

  enum Action: Equatable, Sendable {
    case child1(InMemoryCounter.Action)
    case child2(InMemoryCounter.Action)
    case child3(InMemoryCounter.Action)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .child1(action): InMemoryCounter().reduce(into: &state.child1, action: action).map(Action.child1)
    case let .child2(action): InMemoryCounter().reduce(into: &state.child2, action: action).map(Action.child2)
    case let .child3(action): InMemoryCounter().reduce(into: &state.child3, action: action).map(Action.child3)
    }
  }
}

/// An action whose effect at once sends an action that changes shared state.
struct EarlySharedMutation: Reducer {
  struct State: Equatable {
    @Shared var count: Int
  }

  enum Action: Equatable, Sendable {
    case action
    case response
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .action:
      return .send(.response)
    case .response:
      state.$count.withLock { $0 = 42 }
      return .none
    }
  }
}

/// A parent that owns a count and a child that only reads it.
struct ReaderParent: Reducer {
  struct Child: Equatable {
    @SharedReader var count: Int
  }

  struct State: Equatable {
    @Shared var count: Int
    var child: Child

    init(count: Int = 0) {
      let shared = Shared(value: count)
      self._count = shared
      self.child = Child(count: shared.reader)
    }
  }

  enum Action: Equatable, Sendable {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.$count.withLock { $0 += 1 }
    return .none
  }
}
