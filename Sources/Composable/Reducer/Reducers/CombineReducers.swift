/// Groups reducers so a modifier applies to all of them.
///
/// The reducers run in order on every action, and their effects are merged.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.counter, action: \.counter) { Counter() }
///   Reduce { state, action in … }
/// }
/// .ifLet(\.detail, action: \.detail) { Detail() }
/// ```
public struct CombineReducers<State, Action: Sendable, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline let reducers: Reducers

  /// Combines the reducers built by `build`.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.reducers.reduce(into: &state, action: action)
  }
}
