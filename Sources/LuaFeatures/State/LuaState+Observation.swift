import Composable
import LuaBridge

/// A Lua feature's state tells observation which of its fields an action changed from the
/// action's change report (see ``LuaReducer/lastChanges``): a store over it tells the observers of
/// `store.count` of the actions that wrote `count`, without comparing values, however large they
/// are.
///
/// ```swift
/// let store = Store(initialState: counter.initialState) { counter.reducer() }
/// withObservationTracking { _ = store.count } onChange: { print("count changed") }
/// store.send(["type": "toggleTimer"])   // writes `isTimerOn` only: nothing printed
/// store.send(["type": "increment"])     // "count changed"
/// ```
///
/// The report answers for a state that follows the earlier one by exactly one action of the
/// same feature; in any other case (several actions at once, a state set from Swift, a reload) the
/// store compares the values instead, so the answer is always right.
extension LuaState: ObservableStateChanges {
  /// Whether `field` (`\LuaState.count`, `\LuaState.value` or `\LuaState.self`) changed since
  /// `earlier`, from the change report of the action between them: `nil` when `earlier` is not
  /// this state one action before (the store then compares values).
  @MainActor
  public func changed(_ field: AnyKeyPath, since earlier: LuaState) -> Bool? {
    guard let now = residency, let before = earlier.residency, now.replica == before.replica else { return nil }
    if now.version == before.version { return false }
    guard now.version == before.version &+ 1, let replica = LuaStateReplica.named(now.replica),
      replica.version == now.version, let keys = replica.lastChangedKeys()
    else { return nil }
    if field == \LuaState.self || field == \LuaState.value { return !keys.isEmpty }
    guard let name = FieldKeyPaths.name(of: field, in: self) else { return nil }
    return keys.contains(.string(name))
  }
}

/// The key paths of a state's fields (`\LuaState.count`, as `store.count` reads it), by the name
/// of the field they read: key paths are opaque, so each is made once from a name and kept.
@MainActor
private enum FieldKeyPaths {
  private static var names: [AnyKeyPath: LuaString] = [:]
  private static var known: Set<LuaString> = []

  /// The field `keyPath` reads, when it is `\LuaState.name` for a field of `state`.
  static func name(of keyPath: AnyKeyPath, in state: LuaState) -> LuaString? {
    if let name = names[keyPath] { return name }
    guard case let .table(fields) = state.storage else { return nil }
    for name in fields.keys where !known.contains(name) {
      guard let string = name.string else { continue }
      known.insert(name)
      names[\LuaState.[dynamicMember: string]] = name
    }
    return names[keyPath]
  }
}
