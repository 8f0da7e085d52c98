import CasePathsCore
import IssueReporting

extension Reducer {
  /// Runs a presented child feature: the child of a ``PresentationState``.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$detail, action: \.detail) { Detail() }
  /// ```
  ///
  /// - `.presented(action)` runs the child, then this reducer.
  /// - `.dismiss` runs this reducer (it can still read the child), then sets the child to `nil`,
  ///   unless this reducer presented another child meanwhile.
  /// - Whenever the child goes away or is replaced (by `nil`, by a state with another `id`), its effects
  ///   are cancelled — also when another reducer of the body removed it: the next action that
  ///   reaches this `ifLet` cancels them.
  /// - A child that is an alert or a dialog (``_EphemeralState``) is dismissed after any of its
  ///   actions, unless this reducer replaced it.
  /// - Inside the child's effects, `@Dependency(\.dismiss)` sends `.dismiss` for it.
  ///
  /// > Important: A `.presented` action while nothing is presented is reported as an issue.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    _PresentationReducer(
      parent: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction),
      origin: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let parent: Parent
  let destination: Destination
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  let toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>
  let origin: EffectOrigin

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let lastSeen = state[keyPath: toPresentationState].presentedID
    let scopeBefore = scopeID(state)
    var effect: Effect<Parent.Action>
    switch toPresentationAction.extract(from: action) {
    case let .presented(childAction):
      let wasEphemeral = state[keyPath: toPresentationState].wrappedValue.map {
        dismissesEphemeral($0, after: childAction)
      } ?? false
      let childEffect = reduceChild(into: &state, action: action, childAction: childAction)
      effect = childEffect.merge(with: parent.reduce(into: &state, action: action))
      // NB: An alert or a dialog goes away once one of its buttons was tapped, unless the parent
      //     replaced it (another alert, another destination).
      if wasEphemeral, let scopeBefore, scopeID(state) == scopeBefore {
        state[keyPath: toPresentationState].wrappedValue = nil
      }
    case .dismiss:
      if scopeBefore == nil {
        reportIssue(
          """
          An "ifLet" at \(origin) received a "dismiss" action when nothing was presented:

            Action: \(action)

          A child was dismissed twice, or "dismiss" was sent after the parent removed it.
          """,
          fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
        )
      }
      effect = parent.reduce(into: &state, action: action)
      // NB: A parent that answered "dismiss" by presenting another child keeps that one.
      if scopeID(state) == scopeBefore {
        state[keyPath: toPresentationState].wrappedValue = nil
      }
    case nil:
      effect = parent.reduce(into: &state, action: action)
    }
    let scopeAfter = scopeID(state)
    // NB: Cancel the child this reducer last saw, and the one there when the action came in: either
    //     may be gone, removed by this action or by another reducer of the body since.
    for gone in Set([lastSeen, scopeBefore].compactMap { $0 }) where gone != scopeAfter {
      effect = effect.merge(with: .cancel(scope: gone))
    }
    if lastSeen != scopeAfter {
      state[keyPath: toPresentationState].presentedID = scopeAfter
    }
    return effect
  }

  private func scopeID(_ state: Parent.State) -> ChildScopeID? {
    state[keyPath: toPresentationState].wrappedValue.map {
      ChildScopeID(path: toPresentationState, identity: childIdentity(of: $0))
    }
  }

  private func reduceChild(
    into state: inout Parent.State,
    action: Parent.Action,
    childAction: Destination.Action
  ) -> Effect<Parent.Action> {
    guard var childState = state[keyPath: toPresentationState].wrappedValue else {
      reportIssue(
        """
        An "ifLet" at \(origin) received a presentation action when destination state was \
        absent:

          Action: \(action)

        The child's effects kept running after it was dismissed, or something sent to a child \
        that is not presented.
        """,
        fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
      )
      return .none
    }
    let scope = ChildScopeID(path: toPresentationState, identity: childIdentity(of: childState))
    let childEffect = destination.reduce(into: &childState, action: childAction)
    state[keyPath: toPresentationState].wrappedValue = childState
    let toPresentationAction = self.toPresentationAction
    return childEffect
      .map { toPresentationAction.embed(.presented($0)) }
      .dismissing(with: toPresentationAction.embed(.dismiss))
      .scoped(to: scope)
  }
}
