import CasePathsCore
import Clocks
import Composable
import Dependencies

// The features of the stack tests ported from TCA: a screen with effects that end, never end or
// dismiss it, and parents holding a stack of them.

/// One screen of a stack.
struct StackScreen: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Sendable {
    case cancel
    case close
    case closeLater
    case never
    case respondLater
    case response(Int)
  }
  enum CancelID { case response }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancel:
      return .cancel(id: CancelID.response)
    case .close:
      return .run { [dismiss] _ in await dismiss() }
    case .closeLater:
      return .run { [clock, dismiss, seconds = state.count] _ in
        try await clock.sleep(for: .seconds(seconds))
        await dismiss()
      }
    case .never:
      return .run { _ in try await Task.never() }
    case .respondLater:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.response(42))
      }
      .cancellable(id: CancelID.response)
    case let .response(value):
      state.count = value
      return .none
    }
  }
}

/// A parent holding a stack of ``StackScreen``s.
struct StackPath: Reducer {
  struct State: Equatable { var children = StackState<StackScreen.State>() }
  enum Action: Equatable, Sendable, CasePathable {
    case children(StackActionOf<StackScreen>)
    case popChild
    case popFirst
    case popToRoot
    case pushChild
    struct AllCasePaths {
      var children: AnyCasePath<Action, StackActionOf<StackScreen>> { casePath(Action.children) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .children: break
      case .popChild: state.children.removeLast()
      case .popFirst: state.children.removeFirst()
      case .popToRoot: state.children.removeAll()
      case .pushChild: state.children.append(StackScreen.State())
      }
      return .none
    }
    .forEach(\.children, action: \.children) { StackScreen() }
  }
}

/// A `forEach` between a reducer that removes every element before it and one that removes them
/// after it.
struct StackSandwich: Reducer {
  struct State: Equatable { var children = StackState<StackScreen.State>() }
  enum Action: Equatable, Sendable, CasePathable {
    case children(StackActionOf<StackScreen>)
    case removeAfter
    case removeBefore
    struct AllCasePaths {
      var children: AnyCasePath<Action, StackActionOf<StackScreen>> { casePath(Action.children) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .removeBefore = action { state.children.removeAll() }
      return .none
    }
    Reduce { _, _ in .none }
      .forEach(\.children, action: \.children) { StackScreen() }
    Reduce { state, action in
      if case .removeAfter = action { state.children.removeAll() }
      return .none
    }
  }
}
