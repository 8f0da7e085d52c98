import LuaBridge

/// An instance's view of its feature's shared values: which slot backs which field (its own, and
/// its children's), and the version of each it last saw.
struct SharedBindings {
  struct Binding {
    let site: LuaSharedField
    /// `nil` for an element reference to a key no feature declares: its places are detached.
    let slot: LuaSharedSlot?
    var seen: Int
  }

  var bindings: [Binding]
  /// The first key of every binding's path: a change elsewhere reaches none of them.
  let roots: Set<LuaString>
  /// What the bindings were made for: a hot reload or a reset of the host's values re-makes them.
  let feature: ObjectIdentifier
  let generation: Int
}

/// What an action did to the shared fields, found from its patches: the places it wrote (to
/// publish), and the places it put in the state under a new table (a child presented, a row added),
/// which take the shared value.
struct SharedWork {
  var wrote: [(binding: Int, location: [LuaValue])] = []
  var placed: [(binding: Int, location: [LuaValue])] = []
}

// The synchronisation rule: before each action, a shared field whose value changed since this
// instance last saw it (changed by another store, another feature, or Swift) is written into the
// state, at every place it has there (the root's field, a child's, each row's) — the snapshot and
// the resident table alike, without a journal entry: it is not the action's change. After the
// action, a shared field the reducer wrote is read from the patched snapshot and written into the
// shared value (which persists it, and which the other instances pick up on their next action);
// once the action is committed, every other place of the same key in this state takes the new
// value, and the places the action created take the current one.
extension LuaFeatureInstance {
  /// Brings the state's shared fields up to date before an action.
  func pullShared(into state: inout LuaState) throws(LuaError) {
    let shared = host.shared
    let featureID = ObjectIdentifier(feature)
    if sharedBindings?.feature != featureID || sharedBindings?.generation != shared.generation {
      sharedBindings = SharedBindings(
        bindings: feature.sharedFields.map { .init(site: $0, slot: shared.slot(for: $0), seen: -1) },
        roots: Set(feature.sharedFields.map { site in
          switch site.path.first {
          case let .key(key)?, let .presented(key, _)?: return key
          case .each?, nil: return site.field
          }
        }),
        feature: featureID, generation: shared.generation
      )
    }
    guard case .table = state.storage, var bindings = sharedBindings?.bindings else { return }
    let resident = replica.residentIfCurrent(for: state)
    var changed = false
    for index in bindings.indices {
      guard let slot = bindings[index].slot else { continue }
      let version = slot.version
      // NB: a state that is not resident is pushed whole next: its shared fields must hold the
      //     current values whatever was seen.
      if resident != nil, version == bindings[index].seen { continue }
      bindings[index].seen = version
      changed = true
      let value = slot.value
      for location in bindings[index].site.locations(in: state.storage) {
        try place(bindings[index].site, at: location, shared: value, resident: resident, state: &state)
      }
    }
    if changed { sharedBindings?.bindings = bindings }
  }

  /// Writes the place `location` of `site` in step with `shared` (the key's value), in the snapshot
  /// and in the resident table when there is one.
  private func place(
    _ site: LuaSharedField, at location: [LuaValue], shared: LuaValue, resident: LuaTable?, state: inout LuaState
  ) throws(LuaError) {
    guard let value = site.current(at: location, in: state.storage, shared: shared),
      state.storage.value(at: location) != value
    else { return }
    if var table = resident {
      for key in location.dropLast() { table = try table.get(key, as: LuaTable.self) }
      try table.set(site.field, value)
    }
    state.storage.apply(.setField(path: Array(location.dropLast()), key: site.field, value: value), reread: nil)
  }

  /// What `patches` do to the shared fields of `state` (the state after them; `before` is the
  /// state before them); `nil` for nothing.
  func sharedWork(
    for patches: some Collection<StatePatch>, before: LuaValue, in state: () -> LuaValue
  ) -> SharedWork? {
    guard let shared = sharedBindings, !shared.bindings.isEmpty else { return nil }
    let reaches = patches.contains { patch in
      guard case let .string(key)? = patch.writtenPath.first else { return true }
      return shared.roots.contains(key)
    }
    guard reaches else { return nil }
    let state = state()
    var work = SharedWork()
    for patch in patches {
      let written = patch.writtenPath
      // NB: a change the patches re-read rather than place (a shape change, the whole state) may
      //     hold the reducer's writes to a shared field as well as new places: a place that held
      //     another value before the action was written, and is published; a new one is placed.
      let rereads: Bool
      switch patch {
      case .replace, .replaceAll: rereads = true
      default: rereads = false
      }
      for (index, binding) in shared.bindings.enumerated() {
        switch binding.site.reach(of: written, in: state) {
        case let .wrote(location)?:
          work.wrote.append((index, location))
        case let .placed(prefix)?:
          guard let value = state.value(at: prefix) else { continue }
          for location in binding.site.locations(under: prefix, value: value) {
            if rereads, let old = before.value(at: location) {
              if old != state.value(at: location) { work.wrote.append((index, location)) }
            } else {
              work.placed.append((index, location))
            }
          }
        case nil:
          continue
        }
      }
    }
    return work.wrote.isEmpty && work.placed.isEmpty ? nil : work
  }

  /// Writes the shared fields `work` wrote, from `state` (the state after the action), into their
  /// shared values, which save them; returns the keys changed.
  ///
  /// - Throws: When one cannot be saved; the values written before it are put back, so that no
  ///   shared value keeps a part of a failed action.
  func pushShared(_ work: SharedWork, state: LuaState, action: LuaValue?) throws(LuaFeatureError) -> Set<String> {
    guard var bindings = sharedBindings?.bindings else { return [] }
    // NB: the new value of each key: whole values first, then elements written into them.
    var values: [String: (slot: LuaSharedSlot, field: LuaString, value: LuaValue)] = [:]
    let order = work.wrote.sorted { !bindings[$0.binding].site.element && bindings[$1.binding].site.element }
    for (index, location) in order {
      let site = bindings[index].site
      guard let slot = bindings[index].slot, let value = state.storage.value(at: location) else { continue }
      if site.element {
        let collection = values[site.key]?.value ?? slot.value
        guard let replaced = LuaSharedField.replacingElement(of: collection, with: value) else { continue }
        values[site.key] = (slot, values[site.key]?.field ?? site.field, replaced)
      } else {
        values[site.key] = (slot, site.field, value)
      }
    }
    var written: [(slot: LuaSharedSlot, field: LuaString, previous: LuaValue)] = []
    var versions: [String: Int] = [:]
    for (key, change) in values.sorted(by: { $0.key < $1.key }) {
      let previous = change.slot.value
      guard change.value != previous else { continue }
      do {
        versions[key] = try change.slot.write(change.value, field: change.field)
        written.append((change.slot, change.field, previous))
      } catch {
        for undo in written.reversed() {
          // NB: the previous value was saved before: putting it back saves it again.
          _ = try? undo.slot.write(undo.previous, field: undo.field)
        }
        throw LuaFeatureError(kind: .reducer, feature: feature.name, message: error.description, action: action)
      }
    }
    for index in bindings.indices {
      if let version = versions[bindings[index].site.key] { bindings[index].seen = version }
    }
    sharedBindings?.bindings = bindings
    return Set(versions.keys)
  }

  /// After the action is committed: every place of a key in `keys` takes its new value, and the
  /// places in `placed` (made by the action) take the current one.
  func syncShared(_ keys: Set<String>, placed: [(binding: Int, location: [LuaValue])], into state: inout LuaState) {
    guard let bindings = sharedBindings?.bindings else { return }
    let resident = replica.residentIfCurrent(for: state)
    do {
      for (index, location) in placed {
        guard let slot = bindings[index].slot else { continue }
        try place(bindings[index].site, at: location, shared: slot.value, resident: resident, state: &state)
      }
      guard !keys.isEmpty else { return }
      for binding in bindings where keys.contains(binding.site.key) {
        guard let slot = binding.slot else { continue }
        let value = slot.value
        for location in binding.site.locations(in: state.storage) {
          try place(binding.site, at: location, shared: value, resident: resident, state: &state)
        }
      }
    } catch {
      host.report(LuaFeatureError(error, kind: .reducer, feature: feature.name))
    }
  }
}
