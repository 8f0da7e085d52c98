import CasePathsCore

extension Store {
  /// A store for a child feature: its state is read from this store's state, and its actions are
  /// embedded into this store's actions and sent here.
  ///
  /// ```swift
  /// let counterStore = appStore.scope(state: \.counter, action: \.counter)
  /// counterStore.send(.incrementButtonTapped)   // sends .counter(.incrementButtonTapped) to appStore
  /// print(counterStore.state.count)             // reads appStore.state.counter.count
  /// ```
  ///
  /// The child store holds no state of its own: it always shows the parent's current state, and the
  /// parent's reducer (with its `Scope`, `ifLet` or `forEach`) does the work. Observing the child store
  /// observes the parent.
  ///
  /// - Parameters:
  ///   - toChildState: Where the child's state lives in this store's state.
  ///   - toChildAction: The case of this store's actions that carries the child's actions.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let toChildAction = AnyCasePath(toChildAction)
    let state = _state
    let send = _send
    return Store<ChildState, ChildAction>(
      state: { state()[keyPath: toChildState] },
      send: { send(toChildAction.embed($0)) },
      observe: observeChanges,
      owner: owner
    )
  }
}
