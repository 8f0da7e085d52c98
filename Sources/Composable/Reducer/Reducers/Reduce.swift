/// A reducer written as a closure.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .increment:
///     state.count += 1
///     return .none
///   }
/// }
/// ```
///
/// > Tip: `Reduce` is the place for a feature's own logic; compose children around it with ``Scope``,
/// > ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` and
/// > ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
public struct Reduce<State, Action: Sendable>: Reducer {
  @usableFromInline
  let reduce: (inout State, Action) -> Effect<Action>

  /// Creates a reducer from a closure that mutates state and returns an effect.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Erases another reducer's type.
  @inlinable
  public init<R: Reducer<State, Action>>(_ reducer: R) {
    self.reduce = { reducer.reduce(into: &$0, action: $1) }
  }

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.reduce(&state, action)
  }
}
