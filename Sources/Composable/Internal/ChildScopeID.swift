/// Identifies one child instance for cancellation: the path to it in the parent's state, and the
/// child's identity when it has one (an element id, an `Identifiable` state's id).
struct ChildScopeID: Hashable, @unchecked Sendable {
  // NB: Key paths and ids are immutable values here; they are only compared and hashed, never
  //     mutated, so sharing them across the effect runtime is safe.
  let path: AnyKeyPath
  let identity: AnyHashable?
}

/// The identity of a child state for cancellation purposes: its `id` when it is `Identifiable`,
/// otherwise none (the child is identified by where it lives).
func childIdentity<State>(of state: State) -> AnyHashable? {
  guard let identifiable = state as? any Identifiable else { return nil }
  return identity(of: identifiable)
}

private func identity<T: Identifiable>(of value: T) -> AnyHashable {
  AnyHashable(value.id)
}
