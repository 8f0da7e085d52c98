import CasePathsCore
import IssueReporting

/// Runs a child reducer on a part of the parent's state, for the child's actions.
///
/// ```swift
/// struct App: Reducer {
///   struct State { var counter = Counter.State() }
///   enum Action: CasePathable { case counter(Counter.Action) /* … */ }
///
///   var body: some ReducerOf<Self> {
///     Scope(state: \.counter, action: \.counter) { Counter() }
///     Reduce { state, action in … }   // runs after the child, and sees its changes
///   }
/// }
/// ```
///
/// The state can also be a case of an enum (``init(state:action:child:fileID:filePath:line:column:)-(CaseKeyPath<ParentState,Child.State>,_,_,_,_,_,_)``):
/// the child runs only while the parent is in that case.
///
/// The child's cancellation ids reach only its own effects (and its children's): the child cannot
/// cancel what the parent or a sibling started under the same id. The parent's `.cancel(id:)` does
/// reach the child's effects with that id, as it does for every child.
///
/// > Important: List `Scope` *before* the parent's `Reduce`, so the parent sees the child's changes; the
/// > child runs first, as in TCA.
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>, origin: EffectOrigin)
  }

  /// The cancellation scope of the child's effects: the path to its state in the parent.
  let scope: ChildScopeID

  let toChildState: StatePath
  let toChildAction: AnyCasePath<ParentAction, Child.Action>
  let child: Child

  /// Scopes to a stored property of the parent's state.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.scope = ChildScopeID(path: toChildState, identity: nil)
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
  }

  /// Scopes to a case of the parent's state enum. A child action that arrives while the parent is in
  /// another case is reported as an issue: it usually means an effect outlived its screen.
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action, ParentState: CasePathable {
    self.toChildState = .casePath(
      AnyCasePath(toChildState),
      origin: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
    self.scope = ChildScopeID(path: toChildState, identity: nil)
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
  }

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    let toChildAction = self.toChildAction
    // NB: Scoped like every other child, so that the child's `.cancel(id:)` reaches only its own
    //     effects.
    switch toChildState {
    case let .keyPath(keyPath):
      return child.reduce(into: &state[keyPath: keyPath], action: childAction)
        .map { toChildAction.embed($0) }
        .scoped(to: scope)
    case let .casePath(casePath, origin):
      guard var childState = casePath.extract(from: state) else {
        reportIssue(
          """
          A "Scope" at \(origin) received a child action when child state was set to a different case:

            Action:
              \(issueDescription(action))

            State:
              \(issueDescription(state))

          The child's effects probably kept running after the parent left that case. Cancel them \
          (use "ifCaseLet", which does it for you), or guard against the action in the parent.
          """,
          fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
        )
        return .none
      }
      let effect = child.reduce(into: &childState, action: childAction)
      state = casePath.embed(childState)
      return effect.map { toChildAction.embed($0) }.scoped(to: scope)
    }
  }
}
