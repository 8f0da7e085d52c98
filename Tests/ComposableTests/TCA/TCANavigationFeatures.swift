import CasePathsCore
import Clocks
import Composable
import Dependencies
import Foundation

/// The id a parent and its children both use, to show who reaches whose effects.
private enum SharedID { case effect }

/// A parent presenting two children of the same feature; all three run effects under ``SharedID``.
struct Twins: Reducer {
  struct Child: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable, Sendable { case response(Int), start, stop, stopParent }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .response(value):
        state.count = value
        return .none
      case .start:
        return .run { [clock] send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.response(42)) }
        }
        .cancellable(id: SharedID.effect, cancelInFlight: true)
      case .stop, .stopParent:
        // NB: The same id either way: a child cannot reach its parent's (or a sibling's) effects.
        return .cancel(id: SharedID.effect)
      }
    }
  }
  struct State: Equatable {
    @PresentationState var child1: Child.State?
    @PresentationState var child2: Child.State?
    var count = 0
  }
  enum Action: Equatable, Sendable, CasePathable {
    case child1(PresentationAction<Child.Action>)
    case child2(PresentationAction<Child.Action>)
    case ownResponse(Int), presentChildren, startOwn, stop
    struct AllCasePaths {
      var child1: AnyCasePath<Action, PresentationAction<Child.Action>> { casePath(Action.child1) }
      var child2: AnyCasePath<Action, PresentationAction<Child.Action>> { casePath(Action.child2) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child1, .child2: return .none
      case let .ownResponse(value):
        state.count = value
        return .none
      case .presentChildren:
        state.child1 = Child.State()
        state.child2 = Child.State()
        return .none
      case .startOwn:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.ownResponse(42))
        }
        .cancellable(id: SharedID.effect)
      case .stop:
        return .cancel(id: SharedID.effect)
      }
    }
    .ifLet(\.$child1, action: \.child1) { Child() }
    .ifLet(\.$child2, action: \.child2) { Child() }
  }
}

/// A parent presenting one of three destinations: an item, an alert or a dialog.
struct Destinations: Reducer {
  struct Item: Reducer {
    struct State: Equatable, Identifiable {
      var id: UUID
      var count = 0
    }
    enum Action: Equatable, Sendable { case resetIdentity, response, tap }
    @Dependency(\.continuousClock) var clock
    @Dependency(\.uuid) var uuid

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .resetIdentity:
        state.count = 0
        state.id = uuid()
        return .none
      case .response:
        state.count = 999
        return .none
      case .tap:
        state.count += 1
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.response)
        }
      }
    }
  }
  enum AlertAction: Equatable, Sendable { case dismissIt, showDialog }
  struct Destination: Reducer {
    enum State: Equatable, CasePathable {
      case alert(AlertState<AlertAction>)
      case dialog(ConfirmationDialogState<AlertAction>)
      case first(Item.State)
      struct AllCasePaths {
        var alert: AnyCasePath<State, AlertState<AlertAction>> { casePath(State.alert) }
        var dialog: AnyCasePath<State, ConfirmationDialogState<AlertAction>> { casePath(State.dialog) }
        var first: AnyCasePath<State, Item.State> { casePath(State.first) }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }
    enum Action: Equatable, Sendable, CasePathable {
      case alert(AlertAction)
      case dialog(AlertAction)
      case first(Item.Action)
      struct AllCasePaths {
        var alert: AnyCasePath<Action, AlertAction> { casePath(Action.alert) }
        var dialog: AnyCasePath<Action, AlertAction> { casePath(Action.dialog) }
        var first: AnyCasePath<Action, Item.Action> { casePath(Action.first) }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }
    var body: some ReducerOf<Self> {
      Scope(state: \.alert, action: \.alert) { EmptyReducer() }
      Scope(state: \.dialog, action: \.dialog) { EmptyReducer() }
      Scope(state: \.first, action: \.first) { Item() }
    }
  }
  struct State: Equatable { @PresentationState var destination: Destination.State? }
  enum Action: Equatable, Sendable, CasePathable {
    case destination(PresentationAction<Destination.Action>)
    case presentFirst, showAlert
    struct AllCasePaths {
      var destination: AnyCasePath<Action, PresentationAction<Destination.Action>> { casePath(Action.destination) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  static let alert = AlertState<AlertAction> {
    TextState("Choose")
  } actions: {
    ButtonState(action: .showDialog) { TextState("Show dialog") }
    ButtonState(action: .dismissIt) { TextState("Close") }
  }
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination(.presented(.alert(.showDialog))):
        state.destination = .dialog(ConfirmationDialogState { TextState("Hello!") })
      case .destination:
        break
      case .presentFirst:
        state.destination = .first(Item.State(id: uuid()))
      case .showAlert:
        state.destination = .alert(Self.alert)
      }
      return .none
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
  }
}
