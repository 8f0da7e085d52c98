import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import Dependencies
import Testing

/// A child that loads slowly.
private struct Loader: Reducer {
  struct State: Equatable { var text = "" }
  enum Action: Equatable, Sendable { case load, loaded(String) }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.loaded("done"))
      }
    case let .loaded(text):
      state.text = text
      return .none
    }
  }
}

/// One optional destination instead of several optionals: an enum of child features.
private struct Destination: Reducer {
  enum State: Equatable, CasePathable {
    case editor(Loader.State)
    case preview(Loader.State)

    struct AllCasePaths {
      var editor: AnyCasePath<State, Loader.State> {
        AnyCasePath(embed: State.editor) { if case let .editor(s) = $0 { s } else { nil } }
      }
      var preview: AnyCasePath<State, Loader.State> {
        AnyCasePath(embed: State.preview) { if case let .preview(s) = $0 { s } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum Action: Equatable, Sendable, CasePathable {
    case editor(Loader.Action)
    case preview(Loader.Action)

    struct AllCasePaths {
      var editor: AnyCasePath<Action, Loader.Action> {
        AnyCasePath(embed: Action.editor) { if case let .editor(a) = $0 { a } else { nil } }
      }
      var preview: AnyCasePath<Action, Loader.Action> {
        AnyCasePath(embed: Action.preview) { if case let .preview(a) = $0 { a } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.editor, action: \.editor) { Loader() }
    Scope(state: \.preview, action: \.preview) { Loader() }
  }
}

private struct Document: Reducer {
  struct State: Equatable {
    @PresentationState var destination: Destination.State?
  }
  enum Action: Equatable, Sendable, CasePathable {
    case destination(PresentationAction<Destination.Action>)
    case editTapped
    case previewTapped

    struct AllCasePaths {
      var destination: AnyCasePath<Action, PresentationAction<Destination.Action>> {
        AnyCasePath(embed: Action.destination) { if case let .destination(a) = $0 { a } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editTapped:
        state.destination = .editor(Loader.State())
        return .none
      case .previewTapped:
        state.destination = .preview(Loader.State())
        return .none
      case .destination:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
  }
}

@MainActor
struct DestinationTests {
  @Test func aDestinationCaseRunsItsOwnChild() async {
    let clock = TestClock()
    let store = TestStore(initialState: Document.State()) {
      Document()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.editTapped) { $0.destination = .editor(Loader.State()) }
    await store.send(.destination(.presented(.editor(.load))))
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.editor(.loaded("done"))))) {
      $0.destination = .editor(Loader.State(text: "done"))
    }
  }

  @Test func switchingToAnotherDestinationCancelsThePreviousOnesEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Document.State()) {
      Document()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.editTapped) { $0.destination = .editor(Loader.State()) }
    await store.send(.destination(.presented(.editor(.load))))
    await store.send(.previewTapped) { $0.destination = .preview(Loader.State()) }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func anActionForAnotherCaseThanTheCurrentOneIsReported() async {
    let store = TestStore(initialState: Document.State(destination: .editor(Loader.State()))) { Document() }
    await withKnownIssue {
      await store.send(.destination(.presented(.preview(.loaded("x")))))
    } matching: { issue in
      issue.description.contains("received a child action when child state was set to a different case")
    }
  }
}
