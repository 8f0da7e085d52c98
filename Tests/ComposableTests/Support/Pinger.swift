import Clocks
import Composable
import Dependencies

/// A small feature for the test store's own tests: a count, actions that send actions, and an effect
/// that waits on the clock.
struct Pinger: Reducer {
  struct State: Equatable {
    var count = 0
    var pongs: [String] = []
  }

  enum Action: Equatable, Sendable {
    case increment
    case noop
    case ping(String)
    case pingTwice
    case pong(String)
    case pingLater
    case chain(Int)
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .noop:
      return .none
    case let .ping(message):
      return .send(.pong(message))
    case .pingTwice:
      return .merge(.send(.pong("one")), .send(.pong("two")))
    case let .pong(message):
      state.pongs.append(message)
      return .none
    case .pingLater:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.pong("later"))
      }
    case let .chain(remaining):
      state.count += 1
      return remaining > 0 ? .merge(.send(.chain(remaining - 1)), .send(.pong("after \(remaining)"))) : .none
    }
  }
}
