import CasePathsCore
import IssueReporting

extension Reducer {
  /// Runs a child reducer while the state enum is in one case.
  ///
  /// ```swift
  /// enum State: CasePathable { case loggedIn(Home.State), loggedOut(Login.State) }
  ///
  /// Reduce { state, action in … }
  ///   .ifCaseLet(\.loggedIn, action: \.home) { Home() }
  ///   .ifCaseLet(\.loggedOut, action: \.login) { Login() }
  /// ```
  ///
  /// The child runs first, then this reducer. When the state leaves the case (or the case's state is
  /// replaced by one with another `id`), the child's effects are cancelled.
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Case>
  where CaseState == Case.State, CaseAction == Case.Action, State: CasePathable {
    _IfCaseLetReducer(
      parent: self,
      child: child(),
      caseKeyPath: toCaseState,
      toChildState: AnyCasePath(toCaseState),
      toChildAction: AnyCasePath(toCaseAction),
      origin: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let caseKeyPath: AnyKeyPath
  let toChildState: AnyCasePath<Parent.State, Child.State>
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let origin: EffectOrigin

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let scopeBefore = scopeID(state)
    let childEffect = reduceChild(into: &state, action: action)
    let parentEffect = parent.reduce(into: &state, action: action)
    var effect = childEffect.merge(with: parentEffect)
    if let scopeBefore, scopeBefore != scopeID(state) {
      effect = effect.merge(with: .cancel(scope: scopeBefore))
    }
    return effect
  }

  private func scopeID(_ state: Parent.State) -> ChildScopeID? {
    toChildState.extract(from: state).map {
      ChildScopeID(path: caseKeyPath, identity: childIdentity(of: $0))
    }
  }

  private func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard var childState = toChildState.extract(from: state) else {
      reportIssue(
        """
        An "ifCaseLet" at \(origin) received a child action when child state was set to a \
        different case:

          Action:
            \(issueDescription(action))

          State:
            \(issueDescription(state))

        The child's effects kept running after the state left that case, or something sent to a \
        child that is not current.
        """,
        fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
      )
      return .none
    }
    let scope = ChildScopeID(path: caseKeyPath, identity: childIdentity(of: childState))
    let effect = child.reduce(into: &childState, action: childAction)
    state = toChildState.embed(childState)
    let toChildAction = self.toChildAction
    return effect.map { toChildAction.embed($0) }.scoped(to: scope)
  }
}
