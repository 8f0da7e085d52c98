import Composable
import Dependencies
import LuaBridge

/// One running copy of a feature: its resident state table in the VM, its `deps`, its effects.
///
/// A few values, each with one owner and one rule:
///
/// - **The resident state** (`resident`, its registry id, `version`; this file): a `LuaState`
///   mirrors the resident table exactly when its residency is this instance at `version`.
///   `version` moves on only when an action commits; any other state is pushed whole first.
/// - **The state's copy in Swift** (`mirroring`, `currentView`; this file): a state is left a
///   view of the resident table (no copy) after an action while no one else holds it and nothing
///   read it; once a view had to be read, or a state was kept across an action, the instance
///   mirrors for good: each action patches a copy. `currentView` is the only view that may be
///   unread; it is settled (read) before the resident table changes in any way its holders see.
/// - **The running version** (`feature`, `bound`; this file): `bound` is `feature`'s `reduce`
///   with this instance's `deps`, or nil until the next action makes it. Both change together,
///   through `use(_:)` (hot reload).
/// - **A reload's leftovers** (`pendingReload`; `Reload/`): set by a swap, taken by the next
///   action, never kept across two.
/// - **Shared values seen** (`sharedBindings`; `Shared/`): the versions of the shared values last
///   pulled into the state or pushed from it.
/// - **Running effects** (`threads`; `Effects/`): the coroutine of every `fx.run` in flight, added
///   and removed by the effect that runs it, closed with the instance.
@MainActor
final class LuaFeatureInstance {
  /// The feature it runs; hot reload swaps it between two actions (see `swap(to:)`), through
  /// `use(_:)`.
  private(set) var feature: LuaFeature {
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
  private var bound: LuaFunction? {
    didSet { boundID = bound?.reference.registryID }
  }
  /// The registry ids of `resident` and `bound` (which keep them alive): what the hot path passes,
  /// so that an action retains neither.
  private var residentID: Int32?
  private var boundID: Int32?
  private var hasSharedFields: Bool
  private var dependencies: LuaTable?
  private(set) var version: UInt64 = 0
  /// Whether each action patches a Swift copy of the state (see the type's notes); sticky.
  private var mirroring: Bool
  /// The view the store's state is, when it is one.
  private weak var currentView: ResidentView?
  /// The last action's patches (see `lastChanges`).
  private var lastPatches: [(StatePatch, LuaValue?)] = []
  /// The last action's changes, when its state was left a view or had its fields set in place
  /// (see `lastChanges`); `unread` are the indexes of tables put, read from Lua when asked.
  private var lastViewChanges: (changes: [StateChange], unread: [Int], version: UInt64)?
  /// The coroutines of running effects, closed when the instance goes away.
  var threads: [ObjectIdentifier: LuaThread] = [:]
  /// A hot reload's work left for the next action (see `Reload/`).
  var pendingReload: PendingReload?
  /// The shared values behind the feature's shared fields, and the versions last seen (see
  /// `Shared/`); `nil` until the first action of a feature with shared fields.
  var sharedBindings: SharedBindings?

  /// The host and VM of every feature this instance runs (a reload keeps the host).
  let host: LuaFeatureHost
  let vm: LuaVM

  init(feature: LuaFeature, dependencyOverrides: LuaTable?, testing: Bool = false, realClients: [String] = []) {
    self.feature = feature
    self.dependencyOverrides = dependencyOverrides
    self.testing = testing
    self.realClients = realClients
    // NB: stored rather than read through `feature` on each action: fewer retains on the hot path.
    self.host = feature.host
    self.vm = feature.host.vm
    self.hasSharedFields = !feature.sharedFields.isEmpty
    // NB: shared fields are read from and written to the copy on every action.
    self.mirroring = !feature.sharedFields.isEmpty
  }

  isolated deinit {
    settleView()
    for thread in threads.values { thread.close() }
  }

  func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    lastPatches = []
    // NB: the last action's array of changes, emptied, holds this one's: an action allocates and
    //     frees no array for its report (−270 instructions a row toggle). Not a large one: one
    //     action's thousands of writes would stay allocated for good.
    var changes = lastViewChanges?.changes ?? []
    lastViewChanges = nil
    if changes.capacity > 64 {
      changes = []
    } else {
      // NB: not `removeAll(keepingCapacity:)`, whose general replacement costs more than the few
      //     changes an action makes.
      while changes.popLast() != nil {}
    }
    do {
      let hasShared = hasSharedFields
      if hasShared {
        mirroring = true
        try pullShared(into: &state)
      }
      let stateID = try residentID(for: state)
      let asView = leavesView(&state)
      let boundID = try self.boundID ?? boundReduce().reference.registryID
      // NB: the action's transaction is open until `commit()`; any exit before (a throw below)
      //     drops `call`, which rolls the action back.
      var report = ReducerCall.Report(changes: consume changes)
      let call = try host.prelude.transaction.reduce(
        boundID, on: stateID, with: action, readingTables: !asView, into: &report)
      if let message = report.malformed {
        let origin = feature.origin.split(separator: ":")
        throw LuaFeatureError(
          kind: .malformedEffect, feature: feature.name, message: "\(feature.origin): \(message)",
          file: origin.first.map(String.init), line: origin.last.flatMap { Int($0) }, action: action
        )
      }
      let effect = report.effect.isNil ? Effect<LuaValue>.none : try translate(report.effect, action: action)
      if asView {
        // NB: no copy to patch: the state reads the table when asked.
        call.commit()
        committed(&state)
        leaveView(&state)
        lastViewChanges = (report.changes, report.unread, version)
        return effect
      }
      if !hasShared, !report.structural, !report.rereadAll, state.storage.setFields(report.changes) {
        // NB: fields set in place, the commonest action, without planning first; its changes are
        //     what it applied.
        lastViewChanges = (report.changes, [], version)
      } else if !report.changes.isEmpty || report.rereadAll {
        // NB: set by `residentID(for:)` above.
        let patches = try plan(report, state: state, resident: resident!)
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
        lastPatches = patches
      } else {
        lastPatches = []
      }
      call.commit()
      committed(&state)
      return effect
    } catch let error as LuaError {
      host.report(LuaFeatureError(error, kind: .reducer, feature: feature.name, action: action))
    } catch var error as LuaFeatureError {
      error.action = error.action ?? action
      host.report(error)
    } catch {
      host.report(LuaFeatureError(kind: .reducer, feature: feature.name, message: "\(error)", action: action))
    }
    return .none
  }

  /// Marks `state` as the mirror of the resident table after a call that the host keeps.
  private func committed(_ state: inout LuaState) {
    version &+= 1
    state.residency = LuaState.Residency(instance: ObjectIdentifier(self), version: version)
  }

  /// Whether the action about to run leaves `state` a view (no copy to patch): when the instance
  /// does not mirror, no other state holds `state`, and a view was not read. Otherwise settles
  /// `state`'s view into data and mirrors from now on. `state` mirrors the resident table.
  private func leavesView(_ state: inout LuaState) -> Bool {
    guard !mirroring else { return false }
    if state.view != nil {
      if isKnownUniquelyReferenced(&state.view), !state.view!.isRead { return true }
      // NB: read, or held by another state: those keep the value it has now.
      state.storage = state.view!.settle()
    } else if isKnownUniquelyReferenced(&state.box) {
      return true
    }
    mirroring = true
    return false
  }

  /// Makes `state` a view of the resident table as the last action left it.
  private func leaveView(_ state: inout LuaState) {
    if state.view == nil {
      let view = ResidentView(of: self)
      state.view = view
      state.box = StateBox.empty
      currentView = view
    }
  }

  /// Reads the current view, if any, so that its holders keep its value through the change to
  /// the resident table that follows.
  func settleView() {
    currentView?.settle(from: self)
    currentView = nil
  }

  /// A full read of the resident table, for a view; `.nil` when there is none (or, reported, when
  /// the read fails).
  func readResident() -> LuaValue {
    do {
      return try resident?.value() ?? .nil
    } catch {
      host.report(LuaFeatureError(error, kind: .reducer, feature: feature.name))
      return .nil
    }
  }

  /// The resident table mirroring `state`, pushing `state` into the VM when it is not the one the
  /// last action produced (a new store, or state set from Swift).
  private func residentTable(for state: LuaState) throws(LuaError) -> LuaTable {
    if let resident = residentIfCurrent(for: state) { return resident }
    guard let table = try vm.reference(state.storage).table else {
      throw LuaError(kind: .conversion, message: "the state of \(feature.name) must be a table, got \(state.storage.typeName)")
    }
    settleView()
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

  /// Makes `feature` the running version from the next action on: its `reduce` is bound then
  /// (`deps` stay: same host, same overrides).
  func use(_ feature: LuaFeature) {
    self.feature = feature
    bound = nil
  }

  /// The feature's `reduce` with its `deps` bound, made once per version.
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

  /// Plans the snapshot's patches for an action's changes; reads containers whose shape changed
  /// now, so that applying cannot fail.
  private func plan(
    _ report: borrowing ReducerCall.Report, state: LuaState, resident: LuaTable
  ) throws(LuaError) -> [(StatePatch, LuaValue?)] {
    if report.rereadAll { return [(.replaceAll, try resident.value())] }
    // NB: without a table put or removed, no change lies inside another's table, and keys are not
    //     repeated: each change is planned on its own (the common action: a few fields).
    if !report.structural, let patches = StatePatch.planIndependent(report.changes, on: state.storage) {
      return patches
    }
    var result: [(StatePatch, LuaValue?)] = []
    for patch in StatePatch.plan(report.changes, on: state.storage) {
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

  /// The last action's changes as paths and values (see ``LuaReducer/lastChanges``), made from
  /// its patches when asked for.
  var lastChanges: [LuaStateChange] {
    if let (changes, unread, at) = lastViewChanges {
      return changes.enumerated().map { index, change in
        var value = change.value
        // NB: a table put is read from the resident table, as the action left it.
        if at == version, let resident, unread.contains(index) {
          value = (try? vm.call(host.prelude.valueAt, resident, LuaValue.array(change.path + [change.key]), returning: LuaValue.self)) ?? .nil
        }
        return LuaStateChange(path: change.path + [change.key], value: value)
      }
    }
    return lastPatches.map { patch, reread in
      switch patch {
      case let .setField(path, key, value): LuaStateChange(path: path + [.string(key)], value: value)
      case let .setElement(path, index, value): LuaStateChange(path: path + [.integer(Int64(index + 1))], value: value)
      case let .append(path, position, value): LuaStateChange(path: path + [.integer(position)], value: value)
      case let .removeLast(path, position): LuaStateChange(path: path + [.integer(position)], value: .nil)
      case let .replace(path): LuaStateChange(path: path, value: reread ?? .nil)
      case .replaceAll: LuaStateChange(path: [], value: reread ?? .nil)
      }
    }
  }
}

extension LuaValue {
  /// Integral floats used as keys are integers in Lua (`t[1.0]` is `t[1]`).
  var normalizedKey: LuaValue {
    if case let .number(number) = self, let integer = Int64(exactly: number) { return .integer(integer) }
    return self
  }
}
