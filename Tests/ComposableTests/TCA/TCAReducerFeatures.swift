import CasePathsCore
import Composable
import Dependencies
import IdentifiedCollections

// The features of the reducer operator tests ported from TCA.

/// A parent, an optional child and an optional grandchild (a ``Ticker``), composed with `ifLet`.
struct Family: Reducer {
  struct Middle: Reducer {
    struct State: Equatable { var grandchild: Ticker.State? }
    enum Action: Equatable, Sendable, CasePathable {
      case grandchild(Ticker.Action)
      struct AllCasePaths { var grandchild: AnyCasePath<Action, Ticker.Action> { casePath(Action.grandchild) } }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }
    var body: some ReducerOf<Self> {
      EmptyReducer().ifLet(\.grandchild, action: \.grandchild) { Ticker() }
    }
  }
  struct State: Equatable { var child: Middle.State? }
  enum Action: Equatable, Sendable, CasePathable {
    case child(Middle.Action)
    case exit
    case start
    struct AllCasePaths { var child: AnyCasePath<Action, Middle.Action> { casePath(Action.child) } }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child: break
      case .exit: state.child = nil
      case .start: state.child = Middle.State(grandchild: Ticker.State())
      }
      return .none
    }
    .ifLet(\.child, action: \.child) { Middle() }
  }
}

/// An alert held in a plain optional.
struct Alerting: Reducer {
  struct State: Equatable {
    var alert: AlertState<AlertAction>?
    var confirmed = false
  }
  enum AlertAction: Equatable, Sendable { case confirm }
  enum Action: Equatable, Sendable, CasePathable {
    case alert(AlertAction)
    case show
    struct AllCasePaths { var alert: AnyCasePath<Action, AlertAction> { casePath(Action.alert) } }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  static let alert = AlertState<AlertAction> {
    TextState("Sure?")
  } actions: {
    ButtonState(action: .confirm) { TextState("Yes") }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.confirm): state.confirmed = true
      case .show: state.alert = Self.alert
      }
      return .none
    }
    .ifLet(\.alert, action: \.alert)
  }
}

/// Rows of ``Ticker``s.
struct Rows: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Ticker.State> = []
    var changes = 0
  }
  enum Action: Equatable, Sendable, CasePathable {
    case add(Int)
    case removeAll
    case rows(IdentifiedActionOf<Ticker>)
    struct AllCasePaths { var rows: AnyCasePath<Action, IdentifiedActionOf<Ticker>> { casePath(Action.rows) } }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(id): state.rows.append(Ticker.State(id: id))
      case .removeAll: state.rows.removeAll()
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Ticker() }
  }
}

/// A count shown as exclamation marks, kept below two by `onChange`.
struct Shouting: Reducer {
  struct State: Equatable {
    var count = 0
    var description = ""
  }
  enum Action: Equatable, Sendable { case decrement, increment }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      state.count += action == .increment ? 1 : -1
      return .none
    }
    .onChange(of: \.count) { _, count in
      Reduce { state, _ in
        state.description = String(repeating: "!", count: count)
        return count > 1 ? .send(.decrement) : .none
      }
    }
  }
}

/// Two counts whose sum is updated when either changes (a tuple, compared with `removeDuplicates`).
struct Sum: Reducer {
  struct State: Equatable {
    var a = 0
    var b = 0
    var sum = 0
  }
  enum Action: Equatable, Sendable { case increment, noop, updateSum(Int) }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.a += 1
        state.b += 1
      case .noop: break
      case let .updateSum(sum): state.sum = sum
      }
      return .none
    }
    .onChange(of: { ($0.a, $0.b) }, removeDuplicates: ==) { _, _ in
      Reduce { state, _ in .send(.updateSum(state.a + state.b)) }
    }
  }
}

/// Records the `recorded` dependency in its state, now or from an effect.
struct Recorder: Reducer {
  enum Action: Equatable, Sendable { case tap, start, response(Int), otherResponse(Int) }
  @Dependency(\.recorded) var recorded

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      state = recorded
      return .none
    case .start:
      state += 1
      return .run { [recorded] send in await send(.response(recorded)) }
    case let .response(value):
      state = value
      return .run { send in
        @Dependency(\.recorded) var recorded
        await send(.otherResponse(recorded))
      }
    case let .otherResponse(value):
      state = value
      return .none
    }
  }
}

private enum RecordedKey: DependencyKey {
  static let liveValue = 0
  static let testValue = 0
}

extension DependencyValues {
  var recorded: Int {
    get { self[RecordedKey.self] }
    set { self[RecordedKey.self] = newValue }
  }
}

/// A state that is one of two ``Ticker``s, composed with `ifCaseLet`.
struct Switcher: Reducer {
  enum State: Equatable, CasePathable {
    case first(Ticker.State)
    case second(Ticker.State)
    struct AllCasePaths {
      var first: AnyCasePath<State, Ticker.State> { casePath(State.first) }
      var second: AnyCasePath<State, Ticker.State> { casePath(State.second) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  enum Action: Equatable, Sendable, CasePathable {
    case first(Ticker.Action)
    case second(Ticker.Action)
    case showFirst(id: Int)
    case showSecond
    struct AllCasePaths {
      var first: AnyCasePath<Action, Ticker.Action> { casePath(Action.first) }
      var second: AnyCasePath<Action, Ticker.Action> { casePath(Action.second) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .showFirst(id): state = .first(Ticker.State(id: id))
      case .showSecond: state = .second(Ticker.State())
      case .first, .second: break
      }
      return .none
    }
    .ifCaseLet(\.first, action: \.first) { Ticker() }
    .ifCaseLet(\.second, action: \.second) { Ticker() }
  }
}
