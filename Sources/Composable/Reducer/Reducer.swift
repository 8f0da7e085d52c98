/// A description of how a feature's state evolves when an action arrives, and of the effects to run.
///
/// Conform a type to `Reducer` either by implementing ``reduce(into:action:)`` or, more often, by
/// composing other reducers in ``body``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action: Sendable { case increment, decrement }
///
///   var body: some Reducer<State, Action> {
///     Reduce { state, action in
///       switch action {
///       case .increment: state.count += 1
///       case .decrement: state.count -= 1
///       }
///       return .none
///     }
///   }
/// }
/// ```
///
/// > Important: A reducer must be a pure function of its state and action. Do side effects (network,
/// > time, randomness, disk) in the ``Effect`` it returns, through dependencies, so tests control them.
public protocol Reducer<State, Action> {
  /// The state the reducer evolves.
  associatedtype State
  /// The actions it handles. Actions cross from effects into the store, so they must be `Sendable`.
  associatedtype Action: Sendable
  /// The type of ``body``; inferred.
  associatedtype Body

  /// Evolves `state` for `action` and returns the effect to run afterwards.
  ///
  /// Implement this *or* ``body``, not both.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducer's implementation, composed from other reducers.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` has no body.
  public var body: Body {
    fatalError(
      """
      '\(Self.self)' has no body. Do not access a reducer's body directly: call \
      'reduce(into:action:)' instead.
      """
    )
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.body.reduce(into: &state, action: action)
  }
}

/// A reducer whose state and action are those of a feature `R`.
///
/// ```swift
/// let reducer: some ReducerOf<Counter> = Counter()
/// ```
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
