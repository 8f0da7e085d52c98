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

extension Store {
  /// A store for a child feature whose state is optional: `nil` while the child is absent.
  ///
  /// ```swift
  /// if let detailStore = store.scope(state: \.detail, action: \.detail.presented) {
  ///   DetailView(store: detailStore)
  /// }
  /// ```
  ///
  /// The child store shows the parent's child state while there is one. Once the parent removes the
  /// child, the store keeps showing the child's last state (a view being dismissed still renders),
  /// and actions sent to it reach the parent, whose `ifLet` reports them as sent to an absent child.
  ///
  /// > Important: Scope again after the child comes back; a store kept from before shows the new
  /// > child too, as it reads the parent's state.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = _state()[keyPath: toChildState] else { return nil }
    let toChildAction = AnyCasePath(toChildAction)
    let state = _state
    let send = _send
    let last = LastPresentedState(initial)
    return Store<ChildState, ChildAction>(
      state: {
        if let current = state()[keyPath: toChildState] { last.value = current }
        return last.value
      },
      send: { send(toChildAction.embed($0)) },
      observe: observeChanges,
      owner: owner
    )
  }
}

/// The last non-`nil` state of an optional child, shown by its store once the child is gone.
@MainActor
private final class LastPresentedState<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
