import ComposableMacros

/// The counter of TCA's tutorial, with `@CasePathable` actions: no hand-written `AllCasePaths`.
public struct Counter: Reducer {
  public struct State: Equatable {
    public var count = 0
    public var fact: String?
    public var isLoading = false

    public init(count: Int = 0, fact: String? = nil, isLoading: Bool = false) {
      self.count = count
      self.fact = fact
      self.isLoading = isLoading
    }
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    case decrementButtonTapped
    case factButtonTapped
    case factResponse(String)
    case incrementButtonTapped
  }

  @Dependency(\.numberFact) var numberFact

  public init() {}

  public var body: some ReducerOf<Self> {
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
        }
      case let .factResponse(fact):
        state.fact = fact
        state.isLoading = false
        return .none
      case .incrementButtonTapped:
        state.count += 1
        state.fact = nil
        return .none
      }
    }
  }
}
