import ConcurrencyExtras
import Dependencies
import Observation

/// The runtime of a feature: it holds the state, runs the reducer on each action, and runs the effects.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// }
/// store.send(.increment)
/// print(store.state.count) // 1
/// ```
///
/// ## Isolation
///
/// A store lives on the **main actor**, as in TCA. `send` is synchronous, so the state has changed when
/// it returns, and all actions — from callers and from effects — are reduced one at a time, in order,
/// without locks. A command-line program or a server gets the same guarantees: call `send` from
/// `@MainActor` code (a CLI's `main` already is), and let effects do the slow work off the main actor;
/// they come back through ``Send``. It also gives the Lua layer the single owner its VM requires.
///
/// > Important: A server handling many independent sessions should give each its own store and keep
/// > reducers cheap: every reducer call runs on the main actor.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable> {
  @usableFromInline let _state: @MainActor () -> State
  @usableFromInline let _send: @MainActor (Action) -> StoreTask
  @usableFromInline let observeChanges: @MainActor (@escaping @MainActor () -> Void) -> StoreObservation
  /// Keeps the root alive while a scoped store is in use.
  @usableFromInline let owner: AnyObject
  /// Tells Observation which fields were read, and which an action changed.
  let observationRegistrar = ObservationRegistrar()
  /// The fields read through this store, watched until they change; `nil` until one is read.
  var observed: ObservedFields<State, Action>?

  /// Creates a store running `reducer` from `initialState`.
  ///
  /// The store keeps the dependencies in effect where it is created (with `prepareDependencies`
  /// applied): its reducer and every effect it starts see them, whatever is in effect when an action
  /// is sent later.
  ///
  /// ```swift
  /// let store = Store(initialState: Counter.State()) {
  ///   Counter()
  /// } withDependencies: {
  ///   $0.numberFact.fetch = { "\($0) is a good number." }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state to start from; it is built with the store's dependencies.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Overrides dependencies for the reducer and for every effect it starts.
  @inlinable
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (state, reducer, dependencies) = withDependencies(prepareDependencies ?? { _ in }) {
      @Dependency(\.self) var dependencies
      return (initialState(), reducer(), dependencies)
    }
    // NB: With nothing overridden where the store is made, its reducer reads the defaults either way;
    //     binding them on each action would only cost time.
    let bound = prepareDependencies != nil || dependencies.mayHaveOverrides
    self.init(root: RootCore(state: state, reducer: reducer, dependencies: dependencies, bindsEveryAction: bound))
  }

  // NB: Inlinable so that the closures below are specialized for the concrete reducer in the module
  //     that creates the store: an unspecialized generic send costs several times more.
  @inlinable
  init<R: Reducer<State, Action>>(root core: RootCore<R>) {
    self._state = { core.state }
    self._send = { core.send($0) }
    self.observeChanges = { core.observe($0) }
    self.owner = core
  }

  init(
    state: @escaping @MainActor () -> State,
    send: @escaping @MainActor (Action) -> StoreTask,
    observe: @escaping @MainActor (@escaping @MainActor () -> Void) -> StoreObservation,
    owner: AnyObject
  ) {
    self._state = state
    self._send = send
    self.observeChanges = observe
    self.owner = owner
  }

  /// How many effects of this store (its root, for a scoped store) are running now: every effect
  /// counts, including those started by actions that effects sent.
  ///
  /// ```swift
  /// while store.effectsInFlight > 0 { try await Task.sleep(for: .milliseconds(10)) }
  /// ```
  public var effectsInFlight: Int {
    var owner: AnyObject? = self.owner
    // NB: a scoped store's owner is its parent store; the root's is the core that runs effects.
    while let store = owner as? any StoreOwner { owner = store.storeOwner }
    return (owner as? any EffectsInFlightCounting)?.effectsInFlight ?? 0
  }

  /// The current state.
  ///
  /// Observation tracks it whole: an observer that read `state` is told of the next action,
  /// whatever it changed. Read the fields a view needs through the store instead (`store.count`)
  /// to be told of their changes only.
  ///
  /// > Tip: Reading `state` copies it; read the fields you need (`store.count`) or observe changes
  /// > with ``observe(_:)`` rather than polling.
  @inlinable
  public var state: State {
    let state = _state()
    track(\.self, in: state)
    return state
  }

  /// Calls `body` with the current state and returns what it returns.
  ///
  /// ```swift
  /// let count = store.withState(\.count)
  /// let summary = store.withState { "\($0.count) (\($0.isLoading ? "loading" : "idle"))" }
  /// ```
  ///
  /// As in TCA, Observation does not track this read: use it where nothing should re-render —
  /// a host printing the state after each action, a test, a log line. A view reads through the
  /// store (`store.count`) instead.
  ///
  /// > Important: Reading ``state`` tracks the whole state, so an observer is told of the next
  /// > action whatever it changed; `withState` tracks nothing and costs nothing per action.
  @inlinable
  public func withState<Value>(_ body: (_ state: State) -> Value) -> Value {
    body(_state())
  }

  /// Reads one value of the current state: `store.count` for `store.state.count`.
  ///
  /// Observation tracks that value alone: an observer that read `store.count` is told of an
  /// action that changed `count`, and of no other. A deeper key path tracks just its end:
  /// `store[dynamicMember: \.profile.city]`.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    let state = _state()
    track(keyPath, in: state)
    return state[keyPath: keyPath]
  }

  /// Sends an action: the reducer runs now, and state has changed when `send` returns.
  ///
  /// Actions sent while the store is already reducing (by a synchronous `.send` effect, or by an
  /// observer) are queued and reduced right after, in order.
  ///
  /// - Returns: A task for the effects this action started; await it to wait for them, or cancel it.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    _send(action)
  }

  /// Calls `onChange` after each `send` (and each action sent by an effect) that the store processed.
  ///
  /// ```swift
  /// let observation = store.observe { print(store.state) }
  /// ```
  ///
  /// The observation ends when the returned token is cancelled or deallocated.
  public func observe(_ onChange: @escaping @MainActor () -> Void) -> StoreObservation {
    observeChanges(onChange)
  }
}

extension Store where State: Sendable {
  /// An async sequence of states: the current one first, then one after each change.
  ///
  /// ```swift
  /// for await state in store.states {
  ///   render(state)
  /// }
  /// ```
  public var states: AsyncStream<State> {
    let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .bufferingNewest(1))
    continuation.yield(_state())
    let observation = observe { [weak self] in
      guard let self else { return continuation.finish() }
      continuation.yield(self._state())
    }
    continuation.onTermination = { _ in Task { @MainActor in observation.cancel() } }
    return stream
  }
}

/// An observation of a store started with ``Store/observe(_:)``; cancelled when released.
public final class StoreObservation: Sendable {
  let isCancelled = LockIsolated(false)

  init() {}

  /// Stops the observation.
  public func cancel() {
    isCancelled.setValue(true)
  }

  deinit {
    cancel()
  }
}

/// A store whose state and action are those of feature `R`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// Lets ``Store/effectsInFlight`` walk from a scoped store to its root.
@MainActor
protocol StoreOwner: AnyObject {
  var storeOwner: AnyObject { get }
}

extension Store: StoreOwner {
  var storeOwner: AnyObject { owner }
}
