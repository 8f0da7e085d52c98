import CasePathsCore
import Clocks
import Composable
import Dependencies
import ComposableTesting
import Testing

private struct Screen: Reducer {
  struct State: Equatable { var title: String; var count = 0 }
  enum Action: Equatable, Sendable {
    case increment
    case startTimer
    case tick
    case backTapped
  }
  enum CancelID { case timer }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment, .tick:
        state.count += 1
        return .none
      case .startTimer:
        return .run { [clock] send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
        .cancellable(id: CancelID.timer)
      case .backTapped:
        return .run { [dismiss] _ in await dismiss() }
      }
    }
  }
}

private struct Navigator: Reducer {
  struct State: Equatable {
    var path = StackState<Screen.State>()
    var log: [String] = []
  }
  enum Action: Equatable, Sendable, CasePathable {
    case path(StackAction<Screen.State, Screen.Action>)
    case open(String)

    struct AllCasePaths {
      var path: AnyCasePath<Action, StackAction<Screen.State, Screen.Action>> {
        AnyCasePath(embed: Action.path) {
          guard case let .path(action) = $0 else { return nil }
          return action
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .open(title):
        state.path.append(Screen.State(title: title))
        return .none
      case let .path(.element(id, .increment)):
        state.log.append("\(id): \(state.path[id: id]?.count ?? -1)")
        return .none
      case let .path(.popFrom(id)):
        state.log.append("popping \(state.path[id: id]?.title ?? "?")")
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path) { Screen() }
  }
}

@MainActor
struct StackTests {
  @Test func elementIDsStartAtZeroInTestsAndAreNeverReused() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await store.send(.open("a")) { $0.path.append(Screen.State(title: "a"), id: 0) }
    await store.send(.open("b")) { $0.path.append(Screen.State(title: "b"), id: 1) }
    await store.send(.path(.popFrom(id: 1))) {
      $0.log = ["popping b"]
      $0.path.pop(from: 1)
    }
    await store.send(.open("c")) { $0.path.append(Screen.State(title: "c"), id: 2) }
    #expect(store.state.path.ids == [0, 2])
  }

  @Test func elementActionsRunTheElementBeforeTheParent() async {
    var path = StackState<Screen.State>()
    path.append(Screen.State(title: "a"), id: 0)
    let store = TestStore(initialState: Navigator.State(path: path)) { Navigator() }
    await store.send(.path(.element(id: 0, action: .increment))) {
      $0.path[id: 0]?.count = 1
      $0.log = ["#0: 1"]
    }
  }

  @Test func poppingCancelsThePoppedElementsEffectsOnly() async {
    let clock = TestClock()
    var path = StackState<Screen.State>()
    path.append(Screen.State(title: "a"), id: 0)
    path.append(Screen.State(title: "b"), id: 1)
    let store = TestStore(initialState: Navigator.State(path: path)) {
      Navigator()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.path(.element(id: 0, action: .startTimer)))
    await store.send(.path(.element(id: 1, action: .startTimer)))
    await store.send(.path(.popFrom(id: 1))) {
      $0.log = ["popping b"]
      $0.path.pop(from: 1)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.count = 1 }
    await store.send(.path(.popFrom(id: 0))) {
      $0.log.append("popping a")
      $0.path.removeAll()
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func dismissInsideAnElementPopsIt() async {
    var path = StackState<Screen.State>()
    path.append(Screen.State(title: "a"), id: 0)
    path.append(Screen.State(title: "b"), id: 1)
    let store = TestStore(initialState: Navigator.State(path: path)) { Navigator() }
    await store.send(.path(.element(id: 1, action: .backTapped)))
    await store.receive(.path(.popFrom(id: 1))) {
      $0.log = ["popping b"]
      $0.path.pop(from: 1)
    }
  }

  @Test func pushAddsTheElementWithItsID() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await store.send(.path(.push(id: 0, state: Screen.State(title: "deep")))) {
      $0.path.append(Screen.State(title: "deep"), id: 0)
    }
    await store.send(.open("next")) { $0.path.append(Screen.State(title: "next"), id: 1) }
  }

  @Test func aPushedIDAboveTheNextOneIsReportedInTests() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await withKnownIssue {
      await store.send(.path(.push(id: 7, state: Screen.State(title: "deep")))) {
        $0.path.append(Screen.State(title: "deep"), id: 7)
      }
    } matching: { issue in
      issue.description.contains("received a \"push\" with an unexpected id: #7, where the next id is #0")
    }
    await store.send(.open("next")) { $0.path.append(Screen.State(title: "next"), id: 8) }
  }

  @Test func anActionForAMissingElementIsReported() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await withKnownIssue {
      await store.send(.path(.element(id: 3, action: .increment))) { $0.log = ["#3: -1"] }
    } matching: { issue in
      issue.description.contains("received an action for an element that is not on the stack")
    }
  }
}
