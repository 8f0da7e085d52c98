import CasePathsCore
import Clocks
import Composable
import Dependencies
import ComposableTesting
import Testing

/// A child that counts, loads slowly, and can close itself.
private struct Editor: Reducer {
  struct State: Equatable { var text = "" }
  enum Action: Equatable, Sendable {
    case typed(String)
    case load
    case loaded(String)
    case closeTapped
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .typed(text):
        state.text = text
        return .none
      case .load:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.loaded("from disk"))
        }
      case let .loaded(text):
        state.text = text
        return .none
      case .closeTapped:
        return .run { [dismiss] _ in await dismiss() }
      }
    }
  }
}

private struct Notes: Reducer {
  struct State: Equatable {
    @PresentationState var editor: Editor.State?
    var saved: [String] = []
  }
  enum Action: Equatable, Sendable, CasePathable {
    case editor(PresentationAction<Editor.Action>)
    case editTapped

    struct AllCasePaths {
      var editor: AnyCasePath<Action, PresentationAction<Editor.Action>> {
        AnyCasePath(embed: Action.editor) {
          guard case let .editor(action) = $0 else { return nil }
          return action
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editTapped:
        state.editor = Editor.State()
        return .none
      case .editor(.dismiss):
        // NB: The parent runs before the child is removed, so it can still read it.
        if let text = state.editor?.text { state.saved.append(text) }
        return .none
      case .editor(.presented(.typed)):
        // NB: The child ran first: its new text is already there.
        state.saved.append("seen: \(state.editor?.text ?? "nil")")
        return .none
      case .editor:
        return .none
      }
    }
    .ifLet(\.$editor, action: \.editor) { Editor() }
  }
}

@MainActor
struct PresentationTests {
  @Test func presentedActionsRunTheChildBeforeTheParent() async {
    let store = TestStore(initialState: Notes.State()) { Notes() }
    await store.send(.editTapped) { $0.editor = Editor.State() }
    await store.send(.editor(.presented(.typed("hi")))) {
      $0.editor?.text = "hi"
      $0.saved = ["seen: hi"]
    }
  }

  @Test func dismissRunsTheParentWhileTheChildIsStillThereThenRemovesIt() async {
    let store = TestStore(initialState: Notes.State(editor: Editor.State(text: "draft"))) { Notes() }
    await store.send(.editor(.dismiss)) {
      $0.editor = nil
      $0.saved = ["draft"]
    }
  }

  @Test func dismissingCancelsTheChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Notes.State(editor: Editor.State())) {
      Notes()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.editor(.presented(.load)))
    await store.send(.editor(.dismiss)) {
      $0.editor = nil
      $0.saved = [""]
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func theDismissDependencyClosesTheChildFromItsEffect() async {
    let store = TestStore(initialState: Notes.State(editor: Editor.State(text: "x"))) { Notes() }
    await store.send(.editor(.presented(.closeTapped)))
    await store.receive(.editor(.dismiss)) {
      $0.editor = nil
      $0.saved = ["x"]
    }
  }

  // NB: Release builds crashed here (a task-local of function type, pushed wrongly by the
  //     optimizer); scripts/test runs this suite in release too.
  @Test func aPresentedChildsEffectRunsInAnAppsStore() async {
    await withTestStoreExecutor {
      let clock = TestClock()
      let store = Store(initialState: Notes.State(editor: Editor.State())) {
        Notes()
      } withDependencies: {
        $0.continuousClock = clock
      }
      let task = store.send(.editor(.presented(.load)))
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(store.state.editor?.text == "from disk")
      await store.send(.editor(.presented(.closeTapped))).finish()
      #expect(store.state.editor == nil)
      #expect(store.state.saved == ["from disk"])
    }
  }

  @Test func aPresentedActionWithNothingPresentedIsReported() async {
    let store = TestStore(initialState: Notes.State()) { Notes() }
    await withKnownIssue {
      await store.send(.editor(.presented(.typed("lost")))) { $0.saved = ["seen: nil"] }
    } matching: { issue in
      issue.description.contains("received a presentation action when destination state was absent")
    }
  }

  @Test func dismissAtTheRootOfAStoreIsReported() async {
    await withTestStoreExecutor {
      let store = Store(initialState: Editor.State()) { Editor() }
      await withKnownIssue {
        await store.send(.closeTapped).finish()
      } matching: { issue in
        issue.description.contains("\"dismiss\" was called from a feature that is not presented")
      }
    }
  }

  @Test func dismissAtTheRootOfATestStoreDismissesTheStore() async {
    let store = TestStore(initialState: Editor.State()) { Editor() }
    await store.send(.closeTapped)
    #expect(store.isDismissed)
    await withKnownIssue {
      await store.send(.typed("late"))
    } matching: { issue in
      issue.description.contains("Can't send action to dismissed test store.")
    }
  }
}
