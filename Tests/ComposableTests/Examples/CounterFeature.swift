import CasePathsCore
import Composable
import Dependencies

/// A client that fetches a fact about a number: the example dependency of the counter feature.
struct NumberFactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  static let liveValue = NumberFactClient { "\($0) is a number without a fact (offline)." }
}

extension DependencyValues {
  var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

/// The counter of TCA's tutorial: increments, a fact from a dependency, and a cancellable timer.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
    var isTimerRunning = false
  }

  enum Action: Equatable, Sendable, CasePathable {
    case decrementButtonTapped
    case factButtonTapped
    case factResponse(String)
    case factFailed(String)
    case incrementButtonTapped
    case timerTick
    case toggleTimerButtonTapped

    struct AllCasePaths {
      var factResponse: AnyCasePath<Action, String> {
        AnyCasePath(embed: Action.factResponse) {
          guard case let .factResponse(fact) = $0 else { return nil }
          return fact
        }
      }
      var timerTick: AnyCasePath<Action, Void> {
        AnyCasePath(embed: { .timerTick }) {
          guard case .timerTick = $0 else { return nil }
          return ()
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.numberFact) var numberFact

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        state.fact = nil
        return .none

      case .factButtonTapped:
        state.fact = nil
        state.isLoading = true
        return .run { [count = state.count, numberFact] send in
          await send(.factResponse(try await numberFact.fetch(count)))
        } catch: { error, send in
          await send(.factFailed("\(error)"))
        }

      case let .factResponse(fact):
        state.fact = fact
        state.isLoading = false
        return .none

      case let .factFailed(message):
        state.fact = "Could not load a fact: \(message)"
        state.isLoading = false
        return .none

      case .incrementButtonTapped:
        state.count += 1
        state.fact = nil
        return .none

      case .timerTick:
        state.count += 1
        return .none

      case .toggleTimerButtonTapped:
        state.isTimerRunning.toggle()
        guard state.isTimerRunning else { return .cancel(id: CancelID.timer) }
        return .run { [clock] send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.timerTick)
          }
        }
        .cancellable(id: CancelID.timer)
      }
    }
  }
}
