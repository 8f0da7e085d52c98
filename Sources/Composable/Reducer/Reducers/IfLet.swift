import CasePathsCore
import IssueReporting

extension Reducer {
  /// Runs a child reducer on an optional part of state while it is non-`nil`.
  ///
  /// ```swift
  /// Reduce { state, action in
  ///   switch action {
  ///   case .editTapped: state.editor = Editor.State(text: state.text); return .none
  ///   case .editor: return .none
  ///   }
  /// }
  /// .ifLet(\.editor, action: \.editor) { Editor() }
  /// ```
  ///
  /// The child runs first, then this reducer. When the child state becomes `nil` (or is replaced by a
  /// state with another `id`), every effect the child started is cancelled.
  ///
  /// An ``AlertState`` or a ``ConfirmationDialogState`` child is set to `nil` after any of its actions,
  /// unless this reducer replaced it.
  ///
  /// > Important: A child action that arrives while the state is `nil` is reported as an issue: it
  /// > means something sent to a screen that is gone.
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped>
  where WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    _IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: AnyCasePath(toWrappedAction),
      origin: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let origin: EffectOrigin

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let scopeBefore = scopeID(state)
    let childEffect = reduceChild(into: &state, action: action)
    let parentEffect = parent.reduce(into: &state, action: action)
    // NB: An alert or a dialog goes away once one of its buttons was tapped, unless the parent
    //     replaced it. Checked on the type, so other children cost nothing.
    if Child.State.self is any _EphemeralState.Type, let scopeBefore, scopeID(state) == scopeBefore,
      toChildAction.extract(from: action) != nil
    {
      state[keyPath: toChildState] = nil
    }
    let scopeAfter = scopeID(state)
    var effect = childEffect.merge(with: parentEffect)
    if let scopeBefore, scopeBefore != scopeAfter {
      effect = effect.merge(with: .cancel(scope: scopeBefore))
    }
    return effect
  }

  private func scopeID(_ state: Parent.State) -> ChildScopeID? {
    state[keyPath: toChildState].map { ChildScopeID(path: toChildState, identity: childIdentity(of: $0)) }
  }

  private func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard var childState = state[keyPath: toChildState] else {
      reportIssue(
        """
        An "ifLet" at \(origin) received a child action when child state was "nil":

          Action:
            \(issueDescription(action))

        The child's effects kept running after it was dismissed, or something sent to a child that \
        is not shown. Make sure the child is set before sending it actions.
        """,
        fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
      )
      return .none
    }
    let scope = ChildScopeID(path: toChildState, identity: childIdentity(of: childState))
    let effect = child.reduce(into: &childState, action: childAction)
    state[keyPath: toChildState] = childState
    let toChildAction = self.toChildAction
    return effect.map { toChildAction.embed($0) }.scoped(to: scope)
  }
}
