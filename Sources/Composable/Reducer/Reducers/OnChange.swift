extension Reducer {
  /// Runs an extra reducer when a value derived from state changes.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: \.query) { oldValue, newValue in
  ///     Reduce { state, _ in
  ///       state.results = []
  ///       return .none
  ///     }
  ///   }
  /// ```
  ///
  /// The base reducer runs first; if the value differs afterwards, the reducer built from the old and
  /// new values runs on the same action, and the effects of both are merged.
  ///
  /// > Important: The change is detected per action. A value changed and changed back within one
  /// > action does not count as a change.
  public func onChange<Value: Equatable, Changed: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) -> Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    _OnChangeReducer(base: self, toValue: toValue, reducer: reducer)
  }
}

/// The reducer built by ``Reducer/onChange(of:_:)``.
public struct _OnChangeReducer<Base: Reducer, Value: Equatable, Changed: Reducer<Base.State, Base.Action>>: Reducer {
  let base: Base
  let toValue: (Base.State) -> Value
  let reducer: (Value, Value) -> Changed

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return effect }
    return effect.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
