import CasePathsCore
import Clocks
import Composable
import ComposableTesting
import Dependencies
import Testing

/// Navigation stacks with `forEach` over `StackState`, ported from TCA's `StackReducerTests`.
@MainActor
struct TCAStackTests {
  @Test func caseSubscriptReadsAndWritesAnElementsCase() {
    var stack = StackState<Element>()
    stack.append(.int(42), id: 0)
    stack[id: 0, case: \.int]? += 1
    #expect(stack[id: 0] == .int(43))
    stack[id: 0, case: \.int] = nil
    #expect(stack.isEmpty)
  }

  @Test func writingAnUnrelatedCaseOfAnElementIsReported() {
    var stack = StackState<Element>()
    stack.append(.int(42), id: 0)
    withKnownIssue {
      stack[id: 0, case: \.text]?.append("!")
    } matching: { $0.description.contains(#"Can't modify unrelated case "int""#) }
    withKnownIssue {
      stack[id: 0, case: \.text] = nil
    } matching: { $0.description.contains(#"Can't modify unrelated case "int""#) }
    #expect(Array(stack) == [.int(42)])
  }

  @Test func theGeneratorPeeksAndHandsOutIDsInOrder() {
    let ids = StackElementIDGenerator.incrementing
    #expect(ids.peek() == 0)
    #expect(ids.next().description == "#0")
    #expect(ids.peek() == 1)
    #expect(ids.next().description == "#1")
  }

  @Test func anAppendInTheAssertionMakesTheIDTheFeatureMade() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await store.send(.pushChild) { $0.children.append(StackScreen.State()) }
    await store.send(.pushChild) { $0.children.append(StackScreen.State()) }
    #expect(store.state.children.ids == [0, 1])
  }

  @Test func poppingFromTheParentCancelsTheElementsEffects() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await store.send(.pushChild) { $0.children.append(StackScreen.State()) }
    await store.send(.children(.element(id: 0, action: .never)))
    await store.send(.popChild) { $0.children.removeLast() }
  }

  @Test func anElementDismissesItself() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await store.send(.pushChild) { $0.children.append(StackScreen.State()) }
    await store.send(.children(.element(id: 0, action: .never)))
    await store.send(.children(.element(id: 0, action: .close)))
    await store.receive(.children(.popFrom(id: 0))) { $0.children.removeLast() }
  }

  @Test func receivingTheWrongPopShowsTheIDs() async {
    var children = StackState<StackScreen.State>()
    children.append(StackScreen.State(), id: 0)
    let store = TestStore(initialState: StackPath.State(children: children)) { StackPath() }
    await store.send(.children(.element(id: 0, action: .close)))
    await withKnownIssue {
      await store.receive(.children(.popFrom(id: 1))) { $0.children = StackState() }
    } matching: { issue in
      issue.description.contains("Received unexpected action")
        && issue.description.contains("−   .popFrom(id: #1)") && issue.description.contains("+   .popFrom(id: #0)")
    }
  }

  @Test func anIntermediateElementDismissingPopsTheElementsAboveIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: StackPath.State()) { StackPath() } withDependencies: {
      $0.continuousClock = clock
    }
    for (id, seconds) in [(0, 2), (1, 1), (2, 2)] {
      await store.send(.children(.push(id: StackElementID(rawValue: id), state: StackScreen.State(count: seconds)))) {
        $0.children[id: StackElementID(rawValue: id)] = StackScreen.State(count: seconds)
      }
      await store.send(.children(.element(id: StackElementID(rawValue: id), action: .closeLater)))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.children(.popFrom(id: 1))) { $0.children.removeLast(2) }
    await store.send(.children(.popFrom(id: 0))) { $0.children = StackState() }
  }

  @Test func poppingToTheRootCancelsEveryElementsEffects() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await store.send(.pushChild) { $0.children.append(StackScreen.State()) }
    await store.send(.children(.element(id: 0, action: .never)))
    await store.send(.pushChild) { $0.children.append(StackScreen.State()) }
    await store.send(.children(.element(id: 1, action: .never)))
    await store.send(.popToRoot) { $0.children.removeAll() }
  }

  @Test func siblingsUsingTheSameIDNeverCancelEachOther() async {
    let clock = TestClock()
    var children = StackState<StackScreen.State>()
    children.append(StackScreen.State(), id: 0)
    children.append(StackScreen.State(), id: 1)
    let store = TestStore(initialState: StackPath.State(children: children)) { StackPath() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.children(.element(id: 0, action: .respondLater)))
    await store.send(.children(.element(id: 1, action: .respondLater)))
    await store.send(.children(.element(id: 0, action: .cancel)))
    await clock.advance(by: .seconds(1))
    await store.receive(.children(.element(id: 1, action: .response(42)))) { $0.children[id: 1]?.count = 42 }
  }

  @Test func actionsOfAnElementStillInFlightReachThatElement() async {
    let clock = TestClock()
    var children = StackState<StackScreen.State>()
    children.append(StackScreen.State(), id: 0)
    children.append(StackScreen.State(), id: 1)
    let store = TestStore(initialState: StackPath.State(children: children)) { StackPath() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.children(.element(id: 0, action: .respondLater)))
    await store.send(.children(.element(id: 1, action: .respondLater)))
    await store.send(.popFirst) { $0.children.removeFirst() }
    await clock.advance(by: .seconds(1))
    await store.receive(.children(.element(id: 1, action: .response(42)))) { $0.children[id: 1]?.count = 42 }
  }

  @Test func anActionForAMissingIDIsReported() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await withKnownIssue {
      await store.send(.children(.element(id: 999, action: .never)))
    } matching: { $0.description.contains("received an action for an element that is not on the stack") }
  }

  @Test func poppingAMissingIDIsReported() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await withKnownIssue {
      await store.send(.children(.popFrom(id: 999)))
    } matching: { $0.description.contains(#"received a "popFrom" for an id that is not on the stack"#) }
  }

  @Test func anElementLeftWithARunningEffectFailsTheEndOfTheTest() async {
    await withKnownIssue {
      var children = StackState<StackScreen.State>()
      children.append(StackScreen.State(), id: 0)
      let store = TestStore(initialState: StackPath.State(children: children)) { StackPath() }
      await store.send(.children(.element(id: 0, action: .never)))
    } matching: { $0.description.contains("An effect returned for this action is still running") }
  }

  @Test func pushesAndAppendsShareTheIDGenerator() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await store.send(.children(.push(id: 0, state: StackScreen.State()))) { $0.children[id: 0] = StackScreen.State() }
    await store.send(.pushChild) { $0.children[id: 1] = StackScreen.State() }
    await store.send(.children(.push(id: 2, state: StackScreen.State()))) { $0.children[id: 2] = StackScreen.State() }
    await store.send(.pushChild) { $0.children[id: 3] = StackScreen.State() }
    await store.send(.children(.popFrom(id: 0))) { $0.children = StackState() }
    await store.send(.children(.push(id: 0, state: StackScreen.State()))) { $0.children[id: 0] = StackScreen.State() }
  }

  @Test func pushingAnIDAlreadyOnTheStackIsReported() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await store.send(.children(.push(id: 0, state: StackScreen.State()))) { $0.children[id: 0] = StackScreen.State() }
    await withKnownIssue {
      await store.send(.children(.push(id: 0, state: StackScreen.State())))
    } matching: { $0.description.contains(#"received a "push" for an id already on the stack (#0)"#) }
  }

  @Test func aWrongIDInTheAssertionShowsADiff() async {
    let store = TestStore(initialState: StackPath.State()) { StackPath() }
    await withKnownIssue {
      await store.send(.children(.push(id: 0, state: StackScreen.State()))) { $0.children[id: 1] = StackScreen.State() }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("−     #1: StackScreen.State(count: 0)")
        && issue.description.contains("+     #0: StackScreen.State(count: 0)")
    }
  }

  @Test func idsDrawnInAnAssertionDoNotShiftTheFeaturesIDs() async {
    let store = TestStore(initialState: Numbers.State()) { Numbers() }
    await store.send(.buttonTapped) {
      $0.path[id: 0] = 1
      @Dependency(\.stackElementID) var stackElementID
      for _ in 1...3 { _ = stackElementID.next() }
    }
    await store.receive(.response) {
      $0.path[id: 1] = 2
      @Dependency(\.stackElementID) var stackElementID
      for _ in 1...3 { _ = stackElementID.next() }
    }
    await store.send(.buttonTapped) { $0.path.append(1) }
    await store.receive(.response) { $0.path.append(2) }
    #expect(store.state.path.ids == [0, 1, 2, 3])
  }

  @Test func elementsRemovedByAnotherReducerHaveTheirEffectsCancelled() async {
    let store = TestStore(initialState: StackSandwich.State()) { StackSandwich() }
    await store.send(.children(.push(id: 0, state: StackScreen.State()))) { $0.children[id: 0] = StackScreen.State() }
    await store.send(.children(.element(id: 0, action: .never)))
    await store.send(.removeBefore) { $0.children.removeAll() }

    await store.send(.children(.push(id: 1, state: StackScreen.State()))) { $0.children[id: 1] = StackScreen.State() }
    await store.send(.children(.element(id: 1, action: .never)))
    await store.send(.removeAfter) { $0.children.removeAll() }
    // NB: The `forEach` ran before the reducer that removed the element: the next action cancels.
    await store.send(.removeAfter)
  }
}

private enum Element: Equatable, CasePathable {
  case int(Int)
  case text(String)
  struct AllCasePaths {
    var int: AnyCasePath<Element, Int> { casePath(Element.int) }
    var text: AnyCasePath<Element, String> { casePath(Element.text) }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

private struct Numbers: Reducer {
  struct State: Equatable { var path = StackState<Int>() }
  enum Action: Equatable, Sendable, CasePathable {
    case buttonTapped
    case path(StackAction<Int, Never>)
    case response
    struct AllCasePaths { var path: AnyCasePath<Action, StackAction<Int, Never>> { casePath(Action.path) } }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .buttonTapped:
        state.path.append(1)
        return .send(.response)
      case .path:
        return .none
      case .response:
        state.path.append(2)
        return .none
      }
    }
    .forEach(\.path, action: \.path) {}
  }
}
