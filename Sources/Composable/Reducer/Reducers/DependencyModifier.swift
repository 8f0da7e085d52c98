import Dependencies

extension Reducer {
  /// Overrides a dependency for this reducer and for the effects it starts.
  ///
  /// ```swift
  /// Counter()
  ///   .dependency(\.numberFact, .offline)
  /// ```
  ///
  /// > Important: The override applies to this reducer (and its children) only; the parent and sibling
  /// > reducers keep their own dependencies.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Changes a dependency in place for this reducer and the effects it starts.
  ///
  /// ```swift
  /// Feature()
  ///   .transformDependency(\.continuousClock) { $0 = ImmediateClock() }
  /// ```
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer built by ``Reducer/dependency(_:_:)`` and ``Reducer/transformDependency(_:transform:)``.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // NB: Effects capture the dependencies current when they are created (`Effect.run`), so the
    //     override reaches the work the reducer starts too.
    withDependencies(update) {
      base.reduce(into: &state, action: action)
    }
  }
}
