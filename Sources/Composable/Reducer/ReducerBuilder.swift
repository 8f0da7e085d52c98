/// Builds a reducer from the reducers listed in a ``Reducer/body`` or a ``CombineReducers`` block.
///
/// Reducers listed one after another run in order, top to bottom, on the same action. `if`,
/// `if`/`else`, `switch` and `for` are supported, so reducers can be included conditionally or one
/// per element of a list.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.counter, action: \.counter) { Counter() }
///   Reduce { state, action in … }
/// }
/// ```
///
/// ```swift
/// CombineReducers {
///   for rule in rules {          // one reducer per rule, run in order
///     RuleReducer(rule)
///   }
///   if isLogging {               // a reducer included only when the flag is set
///     Logger()
///   }
/// }
/// ```
@resultBuilder
public enum ReducerBuilder<State, Action: Sendable> {
  /// Part of the builder syntax; see ``ReducerBuilder``.
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  /// Part of the builder syntax; see ``ReducerBuilder``.
  @inlinable
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R { first }

  /// Part of the builder syntax; see ``ReducerBuilder``.
  @inlinable
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _Sequence<R0, R1> {
    _Sequence(accumulated, next)
  }

  /// Part of the builder syntax; see ``ReducerBuilder``.
  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R { expression }

  /// Part of the builder syntax; see ``ReducerBuilder``.
  @inlinable
  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> R? { wrapped }

  /// Part of the builder syntax; see ``ReducerBuilder``.
  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first reducer: R0
  ) -> _Conditional<R0, R1> {
    .first(reducer)
  }

  /// Part of the builder syntax; see ``ReducerBuilder``.
  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second reducer: R1
  ) -> _Conditional<R0, R1> {
    .second(reducer)
  }

  /// The reducers made by a `for` loop, run in order.
  @inlinable
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _SequenceMany<R> {
    _SequenceMany(reducers)
  }

  /// Part of the builder syntax; see ``ReducerBuilder``.
  @inlinable
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(_ wrapped: R) -> R { wrapped }

  /// Two reducers run one after the other; their effects are merged.
  public struct _Sequence<R0: Reducer<State, Action>, R1: Reducer<State, Action>>: Reducer {
    @usableFromInline let r0: R0
    @usableFromInline let r1: R1

    @inlinable
    init(_ r0: R0, _ r1: R1) {
      self.r0 = r0
      self.r1 = r1
    }

    /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      self.r0.reduce(into: &state, action: action)
        .merge(with: self.r1.reduce(into: &state, action: action))
    }
  }

  /// Reducers built by a `for` loop, run one after the other; their effects are merged.
  public struct _SequenceMany<Element: Reducer<State, Action>>: Reducer {
    @usableFromInline let reducers: [Element]

    @inlinable
    init(_ reducers: [Element]) {
      self.reducers = reducers
    }

    /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      var effect = Effect<Action>.none
      for reducer in reducers {
        effect = effect.merge(with: reducer.reduce(into: &state, action: action))
      }
      return effect
    }
  }

  /// One of two reducers, chosen when the body was built.
  public enum _Conditional<R0: Reducer<State, Action>, R1: Reducer<State, Action>>: Reducer {
    case first(R0)
    case second(R1)

    /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch self {
      case let .first(first): return first.reduce(into: &state, action: action)
      case let .second(second): return second.reduce(into: &state, action: action)
      }
    }
  }
}

extension Optional: Reducer where Wrapped: Reducer {
  /// The wrapped reducer's.
  public typealias State = Wrapped.State
  /// The wrapped reducer's.
  public typealias Action = Wrapped.Action
  /// The wrapped reducer's.
  public typealias Body = Never

  /// Runs the wrapped reducer when there is one; otherwise does nothing.
  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<Wrapped.Action> {
    switch self {
    case let .some(wrapped): return wrapped.reduce(into: &state, action: action)
    case .none: return .none
    }
  }
}
