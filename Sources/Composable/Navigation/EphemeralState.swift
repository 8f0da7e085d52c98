import CasePathsCore

/// State presented for one answer only, such as ``AlertState`` and ``ConfirmationDialogState``.
///
/// An `ifLet` over ``PresentationState`` dismisses such a child as soon as one of its actions (a
/// button) arrives, unless the parent replaced it while handling that action:
///
/// ```swift
/// case .alert(.presented(.deleteConfirmed)):
///   state.items.removeAll()        // the alert is dismissed by the ifLet
///   return .none
/// ```
///
/// A destination enum whose current case holds such a state is treated the same way, for the actions
/// of that case.
public protocol _EphemeralState {
  /// The type of the actions its buttons send.
  static var actionType: Any.Type { get }
}

/// Whether `action`, just handled by a presented `state`, dismisses it: `state` is an alert or a
/// dialog (or a destination enum currently holding one) and `action` is one of its actions.
func dismissesEphemeral(_ state: Any, after action: Any) -> Bool {
  if state is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: state)
  guard
    mirror.displayStyle == .enum,
    let ephemeral = mirror.children.first?.value as? any _EphemeralState
  else { return false }
  // NB: In a destination enum, only an action of the alert's own case dismisses it; an action for
  //     another case (an effect that outlived its screen) leaves the alert up.
  guard let payload = Mirror(reflecting: action).children.first?.value else { return false }
  return ObjectIdentifier(Swift.type(of: payload)) == ObjectIdentifier(Swift.type(of: ephemeral).actionType)
}

extension Reducer {
  /// Presents an alert or a confirmation dialog: a child with no reducer of its own.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$alert, action: \.alert)
  /// ```
  ///
  /// The alert goes away when one of its buttons is tapped (its action arrives as
  /// `.alert(.presented(action))` for the parent to handle) or on `.alert(.dismiss)`.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(
      toPresentationState, action: toPresentationAction, destination: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

extension Reducer {
  /// Shows an alert or a confirmation dialog held in an optional (not ``PresentationState``).
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.alert, action: \.alert)
  /// ```
  ///
  /// The alert goes away once one of its actions arrives, unless this reducer replaced it.
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    ifLet(
      toWrappedState, action: toWrappedAction, then: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}
