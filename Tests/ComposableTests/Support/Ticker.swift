import Clocks
import Composable
import Dependencies

/// A small child feature for the composition tests: a count, and a once-a-second timer cancellable
/// by ``CancelID/timer``. Its state is `Identifiable`, so it can be a row of a `forEach` too.
struct Ticker: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case increment
    case startTimer
    case stopTimer
    case tick
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .startTimer:
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.count += 1
      return .none
    }
  }
}
