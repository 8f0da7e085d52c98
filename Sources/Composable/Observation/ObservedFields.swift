import Observation

/// The fields of a store's state that were read through it, each with what it takes to tell
/// whether an action changed it: the store's side of Observation.
///
/// A field is watched from its first read until it changes; then its observers are told and it is
/// forgotten, as Observation's own tracking ends at the first change (a view that still needs it
/// reads it again when it re-renders). A store with no watched field costs its actions nothing.
@MainActor
final class ObservedFields<State, Action: Sendable> {
  struct Field {
    /// The store's key path the registrar knows the field by.
    let key: KeyPath<Store<State, Action>, Void>
    /// Whether the field's value in this state differs from the one read.
    let differs: @MainActor (State) -> Bool
  }

  private(set) var fields: [AnyKeyPath: Field] = [:]
  /// The state the fields were read from: the state before the actions being checked.
  private var earlier: State?
  /// The store's subscription to the actions its root processes, while any field is watched.
  private var subscription: StoreObservation?

  /// Watches `keyPath` from `state`, if it is not watched already, and returns the registrar's key.
  func watch<Value>(
    _ keyPath: KeyPath<State, Value>, of store: Store<State, Action>, in state: State
  ) -> KeyPath<Store<State, Action>, Void> {
    if let field = fields[keyPath] { return field.key }
    if fields.isEmpty {
      earlier = state
      subscription = store.observeChanges { [weak store, weak self] in
        guard let store, let self else { return }
        self.check(store)
      }
    }
    let read = state[keyPath: keyPath]
    let equal = Self.equality(of: Value.self)
    let field = Field(key: \Store<State, Action>.[observedField: keyPath]) { state in
      guard let equal else { return true }
      return !equal(read, state[keyPath: keyPath])
    }
    fields[keyPath] = field
    return field.key
  }

  /// After actions: tells the observers of each watched field that changed, and forgets it.
  func check(_ store: Store<State, Action>) {
    let now = store._state()
    let reported = earlier.flatMap { Self.reportedChanges(now, since: $0) }
    var changed: [KeyPath<Store<State, Action>, Void>] = []
    for (path, field) in fields {
      let differs = reported.flatMap { $0(path) } ?? field.differs(now)
      if differs {
        changed.append(field.key)
        fields[path] = nil
      }
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

  /// What `now`'s type says changed since `earlier`, field by field, when it conforms to
  /// ``ObservableStateChanges``.
  private static func reportedChanges(_ now: State, since earlier: State) -> (@MainActor (AnyKeyPath) -> Bool?)? {
    guard let now = now as? any ObservableStateChanges else { return nil }
    return answers(now, since: earlier)
  }

  private static func answers<S: ObservableStateChanges>(_ now: S, since earlier: State) -> (@MainActor (AnyKeyPath) -> Bool?)? {
    guard let earlier = earlier as? S else { return nil }
    return { now.changed($0, since: earlier) }
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
