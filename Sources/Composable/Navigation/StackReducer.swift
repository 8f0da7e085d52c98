import CasePathsCore
import Dependencies
import IssueReporting

extension Reducer {
  /// Runs the features of a navigation stack: the elements of a ``StackState``.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path) { Path() }
  /// ```
  ///
  /// - `.element(id:action:)` runs the element, then this reducer.
  /// - `.popFrom(id:)` runs this reducer (it can still read the elements), then pops.
  /// - `.push(id:state:)` pushes, then runs this reducer; the id generator moves past the pushed id,
  ///   so a later `append` never makes it again.
  /// - Every element that leaves the stack has its effects cancelled.
  /// - Inside an element's effects, `@Dependency(\.dismiss)` pops that element.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    _StackReducer(
      parent: self,
      destination: destination(),
      toStackState: toStackState,
      toStackAction: AnyCasePath(toStackAction),
      origin: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)``.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let parent: Parent
  let destination: Destination
  let toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>
  let toStackAction: AnyCasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>
  let origin: EffectOrigin

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let entryIDs = state[keyPath: toStackState].ids
    let mounted = state[keyPath: toStackState].mounted
    // NB: The elements this reducer saw last time, and those there now: any of them may have been
    //     removed by this action, or by another reducer of the body since.
    let idsBefore = mounted == entryIDs ? entryIDs : mounted.union(entryIDs)
    var effect: Effect<Parent.Action>
    switch toStackAction.extract(from: action) {
    case let .element(id, elementAction):
      effect = reduceElement(into: &state, id: id, action: action, elementAction: elementAction)
        .merge(with: parent.reduce(into: &state, action: action))
    case let .popFrom(id):
      if state[keyPath: toStackState][id: id] == nil {
        report("received a \"popFrom\" for an id that is not on the stack", action: action)
      }
      effect = parent.reduce(into: &state, action: action)
      state[keyPath: toStackState].pop(from: id)
    case let .push(id, elementState):
      if state[keyPath: toStackState].ids.contains(id) {
        report("received a \"push\" for an id already on the stack (\(id))", action: action)
      } else {
        claim(id, for: action)
        state[keyPath: toStackState].append(elementState, id: id)
      }
      effect = parent.reduce(into: &state, action: action)
    case nil:
      effect = parent.reduce(into: &state, action: action)
    }
    let idsAfter = state[keyPath: toStackState].ids
    if idsBefore != idsAfter {
      for id in idsBefore.subtracting(idsAfter) {
        effect = effect.merge(with: .cancel(scope: scope(id)))
      }
    }
    if mounted != idsAfter {
      state[keyPath: toStackState].mounted = idsAfter
    }
    return effect
  }

  /// Moves the id generator past a pushed id, so that a later `append` never makes the same id. In
  /// tests, an id above the next one the generator would make is reported: tests name ids in order.
  private func claim(_ id: StackElementID, for action: Parent.Action) {
    @Dependency(\.stackElementID) var stackElementID
    @Dependency(\.context) var context
    let next = stackElementID.peek()
    if context == .test, id > next {
      report(
        "received a \"push\" with an unexpected id: \(id), where the next id is \(next)",
        action: action
      )
    }
    while stackElementID.peek() <= id { _ = stackElementID.next() }
  }

  private func scope(_ id: StackElementID) -> ChildScopeID {
    ChildScopeID(path: toStackState, identity: AnyHashable(id))
  }

  private func reduceElement(
    into state: inout Parent.State,
    id: StackElementID,
    action: Parent.Action,
    elementAction: Destination.Action
  ) -> Effect<Parent.Action> {
    guard var elementState = state[keyPath: toStackState][id: id] else {
      report("received an action for an element that is not on the stack", action: action)
      return .none
    }
    let effect = destination.reduce(into: &elementState, action: elementAction)
    state[keyPath: toStackState][id: id] = elementState
    let toStackAction = self.toStackAction
    return effect
      .map { toStackAction.embed(.element(id: id, action: $0)) }
      .dismissing(with: toStackAction.embed(.popFrom(id: id)))
      .scoped(to: scope(id))
  }

  private func report(_ problem: String, action: Parent.Action) {
    reportIssue(
      """
      A "forEach" at \(origin) \(problem):

        Action: \(action)

      An element's effect kept running after it was popped, or an action named a wrong id.
      """,
      fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
    )
  }
}
