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
  /// A `Shared` field is watched by value: `.onChange(of: \.$count)` (or a plain `Shared<Int>`
  /// field) runs when the shared value changes, and `oldValue` reads the value before the action.
  ///
  /// > Important: The change is detected per action. A value changed and changed back within one
  /// > action does not count as a change.
  public func onChange<Value: Equatable, Changed: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) -> Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==, reducer: reducer)
  }

  /// Runs an extra reducer when a value derived from state changes, as `isDuplicate` sees it: for
  /// values that are not `Equatable`, or to ignore changes that do not matter.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: \.query, removeDuplicates: { $0.lowercased() == $1.lowercased() }) { _, query in
  ///     Reduce { state, _ in
  ///       return .send(.search(query))
  ///     }
  ///   }
  /// ```
  ///
  /// > Important: `isDuplicate` returns `true` when the two values count as the same (no change).
  public func onChange<Value, Changed: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    removeDuplicates isDuplicate: @escaping (Value, Value) -> Bool,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) -> Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: isDuplicate, reducer: reducer)
  }
}

/// The reducer built by ``Reducer/onChange(of:_:)`` and ``Reducer/onChange(of:removeDuplicates:_:)``.
public struct _OnChangeReducer<Base: Reducer, Value, Changed: Reducer<Base.State, Base.Action>>: Reducer {
  let base: Base
  let toValue: (Base.State) -> Value
  let isDuplicate: (Value, Value) -> Bool
  let reducer: (Value, Value) -> Changed
  /// Whether the value is a shared reference, whose old value must be copied before the action.
  let isShared: Bool

  init(
    base: Base,
    toValue: @escaping (Base.State) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool,
    reducer: @escaping (Value, Value) -> Changed
  ) {
    self.base = base
    self.toValue = toValue
    self.isDuplicate = isDuplicate
    self.reducer = reducer
    self.isShared = Value.self is any SharedFreezing.Type
  }

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var oldValue = toValue(state)
    // NB: A `Shared` read before and after the action is one reference reading the same value: the
    //     old one is kept in a copy of its own.
    if isShared, let shared = oldValue as? any SharedFreezing { oldValue = shared.frozen() as! Value }
    let effect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard !isDuplicate(oldValue, newValue) else { return effect }
    return effect.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
