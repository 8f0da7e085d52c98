import Composable
import Dependencies
import LuaBridge

/// One running copy of a feature: its resident state table in the VM, its `deps`, its effects.
@MainActor
final class LuaFeatureInstance {
  /// The feature it runs; hot reload swaps it between two actions (see `swap(to:)`).
  var feature: LuaFeature {
    didSet { hasSharedFields = !feature.sharedFields.isEmpty }
  }
  let dependencyOverrides: LuaTable?
  /// Whether the instance runs in a test (unmocked client methods fail), and the clients it runs
  /// for real there.
  let testing: Bool
  let realClients: [String]
  private(set) var resident: LuaTable? {
    didSet { residentID = resident?.reference.registryID }
  }
  var bound: LuaFunction? {
    didSet { boundID = bound?.reference.registryID }
  }
  /// The registry ids of `resident` and `bound` (which keep them alive): what the hot path passes,
  /// so that an action retains neither.
  private var residentID: Int32?
  private var boundID: Int32?
  private var hasSharedFields: Bool
  private var dependencies: LuaTable?
  private(set) var version: UInt64 = 0
  /// The last field an action set, reused while actions set the same one.
  private var lastField: (path: [LuaValue], key: LuaString?) = ([], nil)
  /// Whether `lastField` is the bound reducer's last one-write outcome, applied (see
  /// `LuaVM.reduce`).
  private var lastFieldIsCurrent = false
  /// The coroutines of running effects, closed when the instance goes away.
  var threads: [ObjectIdentifier: LuaThread] = [:]
  /// A hot reload's work left for the next action (see `Reload/`).
  var pendingReload: PendingReload?
  /// The shared values behind the feature's shared fields, and the versions last seen (see
  /// `Shared/`); `nil` until the first action of a feature with shared fields.
  var sharedBindings: SharedBindings?

  /// The host and VM of every feature this instance runs (a reload keeps the host).
  let host: LuaFeatureHost
  /// NB: unowned(unsafe): `host` owns the VM for as long as this instance lives, and every action
  ///     would otherwise retain and release it.
  unowned(unsafe) let vm: LuaVM

  init(feature: LuaFeature, dependencyOverrides: LuaTable?, testing: Bool = false, realClients: [String] = []) {
    self.feature = feature
    self.dependencyOverrides = dependencyOverrides
    self.testing = testing
    self.realClients = realClients
    // NB: stored rather than read through `feature` on each action: fewer retains on the hot path.
    self.host = feature.host
    self.vm = feature.host.vm
    self.hasSharedFields = !feature.sharedFields.isEmpty
  }

  isolated deinit {
    for thread in threads.values { thread.close() }
  }

  func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    do {
      let hasShared = hasSharedFields
      if hasShared { try pullShared(into: &state) }
      let stateID = try residentID(for: state)
      let boundID = try self.boundID ?? boundReduce().reference.registryID
      let outcome = try vm.reduce(boundID, on: stateID, with: action, lastIsCurrent: lastFieldIsCurrent)
      // NB: an action that wrote nothing leaves the last write as it was.
      if case .unchanged = outcome {} else { lastFieldIsCurrent = false }
      // NB: the two commonest actions (nothing changed; one field set to a scalar, no effect) are
      //     settled here, without building the general change list. A scalar set in a keyed table
      //     is what the planner would make of it too.
      let results: [LuaValue]
      switch outcome {
      case .unchanged:
        committed(&state)
        return .none
      case let .lastField(value):
        // NB: the commonest action of all: the same field as the last one, nothing to copy.
        let key = lastField.key!  // NB: `.lastField` comes only after a field was applied
        if try applyField(lastField.path, key, value, to: &state, hasShared: hasShared) { return .none }
        results = Self.oneWrite(lastField.path, key, value)
      case let .field(path, key, value):
        if try applyField(path, key, value, to: &state, hasShared: hasShared) {
          lastField = (path, key)
          return .none
        }
        results = Self.oneWrite(path, key, value)
      case let .results(all):
        results = all
      }
      do {
        if results.count > 2, results[1].isNil, let message = results[2].stringValue {
          let origin = feature.origin.split(separator: ":")
          throw LuaFeatureError(
            kind: .malformedEffect, feature: feature.name, message: "\(feature.origin): \(message)",
            file: origin.first.map(String.init), line: origin.last.flatMap { Int($0) }, action: action
          )
        }
        let effect = try translate(results.first ?? .nil, action: action)
        // NB: set by `residentID(for:)` above.
        let patches = try plan(results, state: state, resident: resident!)
        // NB: no commit call: the prelude commits this call when the next one starts.
        if hasShared, let touched = sharedFieldsTouched(by: patches.lazy.map(\.0)) {
          // NB: shared fields are saved before the state takes the change: a value that cannot be
          //     saved fails the action, and the snapshot must then be as it was.
          var changed = state
          for (patch, reread) in patches { changed.storage.apply(patch, reread: reread) }
          try pushShared(touched, state: changed, action: action)
          state = changed
        } else {
          for (patch, reread) in patches { state.storage.apply(patch, reread: reread) }
        }
        committed(&state)
        return effect
      } catch {
        _ = try? vm.call(host.prelude.rollback)
        throw error
      }
    } catch let error as LuaError {
      _ = try? vm.call(host.prelude.rollback)
      host.report(LuaFeatureError(error, kind: .reducer, feature: feature.name, action: action))
    } catch var error as LuaFeatureError {
      _ = try? vm.call(host.prelude.rollback)
      error.action = error.action ?? action
      host.report(error)
    } catch {
      _ = try? vm.call(host.prelude.rollback)
      host.report(LuaFeatureError(kind: .reducer, feature: feature.name, message: "\(error)", action: action))
    }
    return .none
  }

  /// Sets `path[key] = value` in the snapshot when a keyed table is there (what the planner would
  /// do with that one write), and keeps the call; `false` leaves it to the planner.
  ///
  /// - Throws: When the write changes a shared value that cannot be saved; `state` is unchanged.
  private func applyField(
    _ path: [LuaValue], _ key: LuaString, _ value: LuaValue, to state: inout LuaState, hasShared: Bool
  ) throws(LuaFeatureError) -> Bool {
    if hasShared, let touched = sharedFieldsTouched(by: CollectionOfOne(.setField(path: path, key: key, value: value))) {
      // NB: saved before the state takes the change (see `reduce`).
      var changed = state
      guard Self.setField(path, key, value, in: &changed) else { return false }
      try pushShared(touched, state: changed, action: nil)
      state = changed
    } else {
      guard Self.setField(path, key, value, in: &state) else { return false }
    }
    lastFieldIsCurrent = true
    committed(&state)
    return true
  }

  private static func setField(_ path: [LuaValue], _ key: LuaString, _ value: LuaValue, in state: inout LuaState) -> Bool {
    path.isEmpty ? state.storage.setRootField(key, to: value) : state.storage.setField(at: path[...], key, to: value)
  }

  /// One write in the prelude's change format (effect, count, then path, key, isNil, value).
  private static func oneWrite(_ path: [LuaValue], _ key: LuaString, _ value: LuaValue) -> [LuaValue] {
    [.nil, .integer(1), path.isEmpty ? .integer(0) : .array(path), .string(key), .boolean(false), value]
  }

  /// Marks `state` as the mirror of the resident table after a call that the host keeps.
  private func committed(_ state: inout LuaState) {
    version &+= 1
    state.residency = LuaState.Residency(instance: ObjectIdentifier(self), version: version)
  }

  /// The resident table mirroring `state`, pushing `state` into the VM when it is not the one the
  /// last action produced (a new store, or state set from Swift).
  private func residentTable(for state: LuaState) throws(LuaError) -> LuaTable {
    if let resident = residentIfCurrent(for: state) { return resident }
    guard let table = try vm.reference(state.storage).table else {
      throw LuaError(kind: .conversion, message: "the state of \(feature.name) must be a table, got \(state.storage.typeName)")
    }
    resident = table
    return table
  }

  /// `residentTable(for:)`'s registry id, without retaining it when it is current.
  private func residentID(for state: LuaState) throws(LuaError) -> Int32 {
    if let residentID, mirrors(state) { return residentID }
    return try residentTable(for: state).reference.registryID
  }

  /// The resident table, when `state` is the one the last action produced.
  func residentIfCurrent(for state: LuaState) -> LuaTable? {
    guard let resident, mirrors(state) else { return nil }
    return resident
  }

  /// Whether `state` is the snapshot of the resident table as the last action left it.
  private func mirrors(_ state: LuaState) -> Bool {
    state.residency == LuaState.Residency(instance: ObjectIdentifier(self), version: version)
  }

  /// The feature's `reduce` with its `deps` bound, made once per instance.
  private func boundReduce() throws(LuaError) -> LuaFunction {
    if let bound { return bound }
    let function = try vm.call(host.prelude.bind, feature.reduce, try dependencyTable(), returning: LuaFunction.self)
    bound = function
    return function
  }

  /// A full read of the resident state table, `nil` before the first action: what the patched
  /// snapshot must always equal (tests check it).
  func residentValue() throws(LuaError) -> LuaValue? {
    try resident?.value()
  }

  private func dependencyTable() throws(LuaError) -> LuaTable {
    if let dependencies { return dependencies }
    let table = try host.makeDependencies(
      overrides: dependencyOverrides, clients: feature.clients, testing: testing, realClients: realClients)
    dependencies = table
    return table
  }

  /// Reads the journal's changes and plans the snapshot's patches; reads containers whose shape
  /// changed now, so that applying cannot fail.
  ///
  /// The prelude reports changes flat, four entries per write (path, key, isNil, value), after
  /// the effect: as results (their count, then the entries) or, when long, as one array.
  private func plan(
    _ results: [LuaValue], state: LuaState, resident: LuaTable
  ) throws(LuaError) -> [(StatePatch, LuaValue?)] {
    let flat: ArraySlice<LuaValue>
    switch results.count > 1 ? results[1] : .nil {
    case let .integer(count): flat = results.dropFirst(2).prefix(Int(count) * 4)
    case let .array(entries): flat = entries[...]
    default: return []
    }
    var changes: [StateChange] = []
    changes.reserveCapacity(flat.count / 4)
    var rootFieldsOnly = true
    var index = flat.startIndex
    while index + 3 < flat.endIndex {
      let path: [LuaValue]
      switch flat[index] {
      case let .array(keys): path = keys
      case .integer(0): path = []
      default: return [(.replaceAll, try resident.value())]   // a write the prelude could not place
      }
      let key = flat[index + 1].normalizedKey
      let value = flat[index + 2].boolValue == true ? LuaValue.nil : flat[index + 3]
      if !path.isEmpty { rootFieldsOnly = false }
      if case .string = key {} else { rootFieldsOnly = false }
      changes.append(StateChange(path: path, key: key, value: value))
      index += 4
    }
    // NB: the common action sets top-level fields only: patch them directly. (A removal can change
    //     the shape of a table that also has integer keys, so those take the general path.)
    if rootFieldsOnly, case let .table(fields) = state.storage,
      !fields.keys.contains(where: \.looksLikeIndex)
    {
      return changes.compactMap { change in
        guard case let .string(key) = change.key else { return nil }
        return (StatePatch.setField(path: [], key: key, value: change.value), nil)
      }
    }
    var result: [(StatePatch, LuaValue?)] = []
    for patch in StatePatch.plan(changes, on: state.storage) {
      switch patch {
      case let .replace(path):
        result.append((patch, try vm.call(host.prelude.valueAt, resident, LuaValue.array(path), returning: LuaValue.self)))
      case .replaceAll:
        result.append((patch, try resident.value()))
      default:
        result.append((patch, nil))
      }
    }
    return result
  }
}

extension LuaValue {
  /// Integral floats used as keys are integers in Lua (`t[1.0]` is `t[1]`).
  var normalizedKey: LuaValue {
    if case let .number(number) = self, let integer = Int64(exactly: number) { return .integer(integer) }
    return self
  }
}
