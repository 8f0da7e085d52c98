import LuaBridge

/// An instance's view of its feature's shared values: which slot backs which field, and the
/// version of each it last saw.
struct SharedBindings {
  struct Binding {
    let field: LuaString
    let slot: LuaSharedSlot
    var seen: Int
  }

  var bindings: [Binding]
  /// What the bindings were made for: a hot reload or a reset of the host's values re-makes them.
  let feature: ObjectIdentifier
  let generation: Int
}

// The synchronisation rule: before each action, a shared field whose value changed since this
// instance last saw it (changed by another store, another feature, or Swift) is written into the
// state — the snapshot and the resident table alike, without a journal entry: it is not the
// action's change. After the action, a shared field the reducer wrote is read from the patched
// snapshot and written into the shared value (which persists it, and which the other instances
// pick up on their next action).
extension LuaFeatureInstance {
  /// Brings the state's shared fields up to date before an action.
  func pullShared(into state: inout LuaState) throws(LuaError) {
    let shared = host.shared
    let featureID = ObjectIdentifier(feature)
    if sharedBindings?.feature != featureID || sharedBindings?.generation != shared.generation {
      sharedBindings = SharedBindings(
        bindings: feature.sharedFields.map { .init(field: $0.field, slot: shared.slot(for: $0), seen: -1) },
        feature: featureID, generation: shared.generation
      )
    }
    guard case .table = state.storage, var bindings = sharedBindings?.bindings else { return }
    let resident = replica.residentIfCurrent(for: state)
    var changed = false
    for index in bindings.indices {
      let version = bindings[index].slot.version
      // NB: a state that is not resident is pushed whole next: its shared fields must hold the
      //     current values whatever was seen.
      if resident != nil, version == bindings[index].seen { continue }
      let value = bindings[index].slot.value
      bindings[index].seen = version
      changed = true
      if state.storage[bindings[index].field] == value { continue }
      try resident?.set(bindings[index].field, value)
      state.storage.apply(.setField(path: [], key: bindings[index].field, value: value), reread: nil)
    }
    if changed { sharedBindings?.bindings = bindings }
  }

  /// The shared fields that `patches` may change (`nil` for none): the fields they write at the
  /// root, or every shared field for a change the patches cannot place.
  func sharedFieldsTouched(by patches: some Sequence<StatePatch>) -> Set<LuaString>? {
    guard let bindings = sharedBindings?.bindings, !bindings.isEmpty else { return nil }
    var touched: Set<LuaString> = []
    for patch in patches {
      if case let .setField(path, key, _) = patch, path.isEmpty {
        touched.insert(key)
      } else if case let .string(key)? = patch.path.first {
        touched.insert(key)
      } else {
        return Set(bindings.map(\.field))
      }
    }
    touched.formIntersection(bindings.map(\.field))
    return touched.isEmpty ? nil : touched
  }

  /// Writes the shared fields in `touched` from `state` (the state after the action) into their
  /// shared values, which save them.
  ///
  /// - Throws: When one cannot be saved; the values written before it are put back, so that no
  ///   shared value keeps a part of a failed action.
  func pushShared(_ touched: Set<LuaString>, state: LuaState, action: LuaValue?) throws(LuaFeatureError) {
    guard var bindings = sharedBindings?.bindings else { return }
    var written: [(index: Int, previous: LuaValue)] = []
    for index in bindings.indices where touched.contains(bindings[index].field) {
      let value = state.storage[bindings[index].field]
      let previous = bindings[index].slot.value
      guard value != previous else { continue }
      do {
        bindings[index].seen = try bindings[index].slot.write(value, field: bindings[index].field)
        written.append((index, previous))
      } catch {
        for (done, previous) in written.reversed() {
          // NB: the previous value was saved before: putting it back saves it again.
          bindings[done].seen = (try? bindings[done].slot.write(previous, field: bindings[done].field)) ?? bindings[done].seen
        }
        sharedBindings?.bindings = bindings
        throw LuaFeatureError(kind: .reducer, feature: feature.name, message: error.description, action: action)
      }
    }
    sharedBindings?.bindings = bindings
  }
}
