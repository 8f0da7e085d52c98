import CasePathsCore
import Clocks
import Composable
import Dependencies
import Foundation

// The features of the presentation tests ported from TCA: a child with a count, a timer and a way
// to close itself, and parents presenting it.

/// A presented child: counts, ticks once a second, dismisses itself.
struct SheetChild: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Sendable {
    case askToBeDismissed
    case close
    case dismissMe
    case increment
    case never
    case startTimer
    case tick
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .askToBeDismissed: return .send(.dismissMe)
    case .close: return .run { [dismiss] _ in await dismiss() }
    case .dismissMe: return .none
    case .increment:
      state.count += 1
      return .none
    case .never: return .run { _ in try await Task.never() }
    case .startTimer:
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
    case .tick:
      state.count += 1
      return .none
    }
  }
}

/// A presented child with an identity.
struct IdentifiedSheet: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var count = 0
  }
  enum Action: Equatable, Sendable { case startTimer, tick }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
    case .tick:
      state.count += 1
      return .none
    }
  }
}

/// A parent presenting a ``Child`` and an ``Identified`` child.
struct SheetHost: Reducer {
  struct State: Equatable {
    @PresentationState var child: SheetChild.State?
    @PresentationState var identified: IdentifiedSheet.State?
  }
  enum Action: Equatable, Sendable, CasePathable {
    case child(PresentationAction<SheetChild.Action>)
    case dismissChild
    case identified(PresentationAction<IdentifiedSheet.Action>)
    case presentChild
    case presentIdentified
    struct AllCasePaths {
      var child: AnyCasePath<Action, PresentationAction<SheetChild.Action>> { casePath(Action.child) }
      var identified: AnyCasePath<Action, PresentationAction<IdentifiedSheet.Action>> {
        casePath(Action.identified)
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child(.presented(.dismissMe)), .dismissChild:
        state.child = nil
        return .none
      case .child:
        return .none
      case .identified(.dismiss):
        // NB: One particular child is replaced by another when dismissed.
        if state.identified?.id == UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF") {
          state.identified = IdentifiedSheet.State(id: uuid())
        }
        return .none
      case .identified:
        return .none
      case .presentChild:
        state.child = SheetChild.State()
        return .none
      case .presentIdentified:
        state.identified = IdentifiedSheet.State(id: uuid())
        return .none
      }
    }
    .ifLet(\.$child, action: \.child) { SheetChild() }
    .ifLet(\.$identified, action: \.identified) { IdentifiedSheet() }
  }
}

/// A parent of ``Host``, through `Scope`.
struct SheetOuter: Reducer {
  struct State: Equatable { var host = SheetHost.State() }
  enum Action: Equatable, Sendable, CasePathable {
    case host(SheetHost.Action)
    struct AllCasePaths { var host: AnyCasePath<Action, SheetHost.Action> { casePath(Action.host) } }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.host, action: \.host) { SheetHost() }
  }
}

/// A presenting `ifLet` between a reducer that removes the child before it and one that removes
/// it after it.
struct SheetSandwich: Reducer {
  struct State: Equatable { @PresentationState var child: SheetChild.State? }
  enum Action: Equatable, Sendable, CasePathable {
    case child(PresentationAction<SheetChild.Action>)
    case present
    case removeAfter
    case removeBefore
    struct AllCasePaths {
      var child: AnyCasePath<Action, PresentationAction<SheetChild.Action>> { casePath(Action.child) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .removeBefore = action { state.child = nil }
      return .none
    }
    Reduce { state, action in
      if case .present = action { state.child = SheetChild.State() }
      return .none
    }
    .ifLet(\.$child, action: \.child) { SheetChild() }
    Reduce { state, action in
      if case .removeAfter = action { state.child = nil }
      return .none
    }
  }
}
