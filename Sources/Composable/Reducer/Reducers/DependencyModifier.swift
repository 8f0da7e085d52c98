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
///
/// Overrides applied one after the other fuse into one reducer of this type; the innermost (written
/// first) wins, as each override applies to what it wraps.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  /// Another override of the same reducer, fused with this one: `Feature().dependency(…).dependency(…)`
  /// stays one `_DependencyKeyWritingReducer<Feature>`.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> Self {
    let inner = update
    return Self(base: base) {
      $0[keyPath: keyPath] = value
      inner(&$0)
    }
  }

  /// Another transformation of the same reducer's dependencies, fused with this one.
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> Self {
    let inner = update
    return Self(base: base) {
      transform(&$0[keyPath: keyPath])
      inner(&$0)
    }
  }

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // NB: Effects capture the dependencies current when they are created (`Effect.run`), so the
    //     override reaches the work the reducer starts too.
    withDependencies(update) {
      base.reduce(into: &state, action: action)
    }
  }
}
