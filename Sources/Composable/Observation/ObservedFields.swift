import Observation

/// The fields of a store's state that were read through it, each with what it takes to tell
/// whether an action changed it: the store's side of Observation.
///
/// A field is watched from its first read until it changes; then its observers are told and it is
/// forgotten, as Observation's own tracking ends at the first change (a view that still needs it
/// reads it again when it re-renders). A store with no watched field costs its actions nothing.
@MainActor
final class ObservedFields<State, Action: Sendable> {
  /// Whether a field's value in the state now differs from the one read.
  typealias Differs = @MainActor (_ now: State) -> Bool
  /// What the state's type says of a field's change (see ``ObservableStateChanges``).
  typealias Reporter = @MainActor (_ now: State, _ earlier: State, _ field: AnyKeyPath) -> Bool?

  struct Field {
    /// The store's key path the registrar knows the field by.
    let key: KeyPath<Store<State, Action>, Void>
    /// `nil`: the field is reported changed after any action (the whole state, a value that
    /// cannot be compared).
    let differs: Differs?
  }

  private var fields: [AnyKeyPath: Field] = [:]
  /// The registrar's key of every field ever watched: a field is watched again each time it is
  /// read after a change, and its key is the same.
  private var keys: [AnyKeyPath: KeyPath<Store<State, Action>, Void>] = [:]
  /// The state the fields were read from: the state before the actions being checked.
  private var earlier: State?
  /// The store's subscription to the actions its root processes, while any field is watched.
  private var subscription: StoreObservation?
  /// Made from the first state read: whether it conforms is a property of its type.
  private var reporter: Reporter??

  /// Watches `keyPath` from `state`, if it is not watched already, and returns the registrar's key.
  func watch<Value>(
    _ keyPath: KeyPath<State, Value>, of store: Store<State, Action>, in state: State
  ) -> KeyPath<Store<State, Action>, Void> {
    if let field = fields[keyPath] { return field.key }
    if fields.isEmpty {
      earlier = state
      if reporter == nil { reporter = .some(Self.makeReporter(state)) }
      subscription = store.observeChanges { [weak store, weak self] in
        guard let store, let self else { return }
        self.check(store)
      }
    }
    var differs: Differs?
    // NB: The whole state is reported after any action rather than compared: a store read whole
    //     outside any tracking would otherwise be compared after every action until it changed.
    if keyPath != \State.self, let equal = Self.equality(of: Value.self) {
      let read = state[keyPath: keyPath]
      differs = { now in !equal(read, now[keyPath: keyPath]) }
    }
    let key = keys[keyPath] ?? \Store<State, Action>.[observedField: keyPath]
    keys[keyPath] = key
    let field = Field(key: key, differs: differs)
    fields[keyPath] = field
    return field.key
  }

  /// After actions: tells the observers of each watched field that changed, and forgets it.
  func check(_ store: Store<State, Action>) {
    let now = store._state()
    var changed: [KeyPath<Store<State, Action>, Void>] = []
    for (path, field) in fields {
      if let differs = field.differs {
        let reported = earlier.flatMap { earlier in reporter??(now, earlier, path) }
        guard reported ?? differs(now) else { continue }
      }
      changed.append(field.key)
      fields[path] = nil
    }
    earlier = now
    if fields.isEmpty {
      earlier = nil
      subscription?.cancel()
      subscription = nil
    }
    // NB: After the bookkeeping: an observer told of a change may read the field again, and that
    //     read must start a new watch.
    for key in changed {
      store.observationRegistrar.withMutation(of: store, keyPath: key) {}
    }
  }

  /// The state type's own account of its changes, when it conforms to ``ObservableStateChanges``.
  private static func makeReporter(_ state: State) -> Reporter? {
    guard let state = state as? any ObservableStateChanges else { return nil }
    return reporter(for: state)
  }

  private static func reporter<S: ObservableStateChanges>(for _: S) -> Reporter {
    { now, earlier, field in
      guard let now = now as? S, let earlier = earlier as? S else { return nil }
      return now.changed(field, since: earlier)
    }
  }

  /// `==` for `Value`, when it is `Equatable`.
  private static func equality<Value>(of type: Value.Type) -> ((Value, Value) -> Bool)? {
    guard let equatable = type as? any Equatable.Type else { return nil }
    return equality(equatable) as? (Value, Value) -> Bool
  }

  private static func equality<Value: Equatable>(_ type: Value.Type) -> Any {
    { (lhs: Value, rhs: Value) in lhs == rhs }
  }
}
