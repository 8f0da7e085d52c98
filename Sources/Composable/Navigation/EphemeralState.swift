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
/// A destination enum whose current case holds such a state is treated the same way.
public protocol _EphemeralState {}

/// Whether `state`, or the payload of its enum case, is an ``_EphemeralState``.
func isEphemeral(_ state: Any) -> Bool {
  if state is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: state)
  guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return false }
  return payload is any _EphemeralState
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
