/// Identifies one child instance for cancellation: the path to it in the parent's state, and the
/// child's identity when it has one (an element id, an `Identifiable` state's id).
struct ChildScopeID: Hashable, @unchecked Sendable {
  // NB: Key paths and ids are immutable values here; they are only compared and hashed, never
  //     mutated, so sharing them across the effect runtime is safe.
  let path: AnyKeyPath
  let identity: AnyHashable?
}

/// The identity of a child state for cancellation purposes: its `id` when it is `Identifiable`;
/// for an enum (a destination), its case and the identity of the case's value — so that switching
/// a destination from one case to another counts as a new child; otherwise none (the child is
/// identified by where it lives).
func childIdentity<State>(of state: State) -> AnyHashable? {
  if let identifiable = state as? any Identifiable { return identity(of: identifiable) }
  let mirror = Mirror(reflecting: state)
  guard mirror.displayStyle == .enum else { return nil }
  guard let payload = mirror.children.first, let label = payload.label else {
    return AnyHashable(EnumCase(name: String(describing: state), payload: nil))
  }
  return AnyHashable(EnumCase(name: label, payload: childIdentity(of: payload.value)))
}

/// An enum state's case, for ``childIdentity(of:)``.
private struct EnumCase: Hashable {
  let name: String
  let payload: AnyHashable?
}

private func identity<T: Identifiable>(of value: T) -> AnyHashable {
  AnyHashable(value.id)
}
