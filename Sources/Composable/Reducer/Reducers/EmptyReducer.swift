/// A reducer that does nothing: it leaves state alone and returns no effect.
///
/// Useful as a placeholder in a ``ReducerBuilder`` branch, or as the reducer of a leaf feature whose
/// state is only ever changed by its parent.
///
/// ```swift
/// Scope(state: \.settings, action: \.settings) { EmptyReducer() }
/// ```
public struct EmptyReducer<State, Action: Sendable>: Reducer {
  /// Creates a reducer that does nothing.
  @inlinable
  public init() {}

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}
