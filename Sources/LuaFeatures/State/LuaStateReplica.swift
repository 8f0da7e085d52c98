import LuaBridge

/// The store's state as a replica of a feature's resident table: the only code that knows where
/// the state lives, in the VM or in Swift.
///
/// A feature's state lives in a table resident in the VM (`resident`), which reducers change in
/// place; the store's ``LuaState`` is either a *view* of that table (read on demand) or a *mirror*
/// (a Swift copy patched after each action). Its invariants:
///
/// 1. **Residency.** A `LuaState` equals the resident table exactly when its `residency` is this
///    replica at `version`. `version` moves on only when an action commits; a state that is not
///    resident (a new store, a state set from Swift, an older snapshot) is pushed whole before the
///    action runs, and becomes the resident table.
/// 2. **View or mirror.** After an action, the state is left a view of the resident table (no
///    copy) while no other state holds it and its view was never read. Once a view had to be read,
///    or a state was kept across an action, or the feature has shared fields (read and written on
///    the copy every action), the replica mirrors for good (`mirroring` is sticky): each action
///    patches the copy.
/// 3. **One unread view.** `currentView` is the only view that may still be unread. It is settled
///    (read) before the resident table changes in any way its holders could see: an action while
///    another state holds it, a state pushed from Swift, a reload's `migrate`, the replica going
///    away.
/// 4. **The last changes.** Exactly one of `lastPatches` (a mirrored action's patches) and
///    `lastViewChanges` (a view's or in-place action's changes, stamped with the `version` they
///    left) describes the last action; both are empty after a failed one.
///
/// An action goes through it in three steps: ``residentID(for:)`` (push if not resident),
/// ``prepare(_:for:asView:inPlace:)`` (plan how the state follows the action; may throw, nothing
/// changed yet), ``commit(_:_:report:into:)`` (keep the writes and bring the state in step;
/// cannot fail).
@MainActor
final class LuaStateReplica {
  /// How the store's state follows an action, as ``prepare(_:for:asView:inPlace:)`` decided.
  enum Update {
    /// The state is left a view of the resident table.
    case view
    /// The action's changes were set in the state's fields in place.
    case fieldsSet
    /// The state is to take these patches.
    case patches([(StatePatch, LuaValue?)])
    /// The state already took these patches (the caller patched a copy first).
    case patched([(StatePatch, LuaValue?)])
  }

  let host: LuaFeatureHost
  /// The feature's name, for errors.
  var featureName: String
  private(set) var resident: LuaTable? {
    didSet { currentID = resident?.reference.registryID }
  }
  /// The registry id of `resident` (which keeps it alive): what the hot path passes, so that an
  /// action does not retain the table.
  private var currentID: Int32?
  private(set) var version: UInt64 = 0
  /// Whether each action patches a Swift copy of the state (invariant 2); sticky.
  private var mirroring: Bool
  /// The view the store's state is, when it is one (invariant 3).
  private weak var currentView: ResidentView?
  /// The last mirrored action's patches (invariant 4).
  private var lastPatches: [(StatePatch, LuaValue?)] = []
  /// The last action's changes when its state was left a view or had its fields set in place;
  /// `unread` are the indexes of tables put, read from Lua when asked (invariant 4).
  private var lastViewChanges: (changes: [StateChange], unread: [Int], version: UInt64)?

  init(host: LuaFeatureHost, featureName: String, mirroring: Bool) {
    self.host = host
    self.featureName = featureName
    self.mirroring = mirroring
    Self.live[ObjectIdentifier(self)] = Weak(self)
  }

  isolated deinit {
    settleView()
    Self.live[ObjectIdentifier(self)] = nil
  }

  /// Every replica alive, by the identifier a state's `residency` names it with: how observation
  /// finds the change report that made a state.
  private static var live: [ObjectIdentifier: Weak] = [:]

  private struct Weak {
    weak var replica: LuaStateReplica?
    init(_ replica: LuaStateReplica) { self.replica = replica }
  }

  /// The replica a state's `residency` names, while it is alive.
  static func named(_ id: ObjectIdentifier) -> LuaStateReplica? {
    live[id]?.replica
  }

  /// The top-level keys of the state the last action changed, or `nil` when it replaced the state
  /// whole.
  func lastChangedKeys() -> [LuaValue]? {
    if let (changes, _, _) = lastViewChanges {
      return changes.map { $0.path.first ?? $0.key }
    }
    var keys: [LuaValue] = []
    for (patch, _) in lastPatches {
      if let first = patch.path.first {
        keys.append(first)
        continue
      }
      switch patch {
      case let .setField(_, key, _): keys.append(.string(key))
      case let .setElement(_, index, _): keys.append(.integer(Int64(index + 1)))
      case let .append(_, position, _), let .removeLast(_, position): keys.append(.integer(position))
      case .replace, .replaceAll: return nil
      }
    }
    return keys
  }

  /// Mirrors for good from now on (a feature with shared fields).
  func mirrorForGood() {
    mirroring = true
  }

  /// Forgets the last action's changes, and returns an empty array to collect the next one's in.
  ///
  /// The last action's array, emptied, is reused so that an action allocates and frees no array
  /// for its report; not a large one, which would stay allocated for good.
  func startAction() -> [StateChange] {
    lastPatches = []
    var changes = lastViewChanges?.changes ?? []
    lastViewChanges = nil
    if changes.capacity > 64 { return [] }
    // Not `removeAll(keepingCapacity:)`, whose general replacement costs more than the few
    // changes an action makes.
    while changes.popLast() != nil {}
    return changes
  }

  /// The resident table's registry id for `state`, pushing `state` into the VM first when it is
  /// not resident (invariant 1).
  func residentID(for state: LuaState) throws(LuaError) -> Int32 {
    if let currentID, mirrors(state) { return currentID }
    return try push(state).reference.registryID
  }

  /// Makes `state` the resident table.
  private func push(_ state: LuaState) throws(LuaError) -> LuaTable {
    guard let table = try host.vm.reference(state.storage).table else {
      throw LuaError(kind: .conversion, message: "the state of \(featureName) must be a table, got \(state.storage.typeName)")
    }
    settleView()
    resident = table
    return table
  }

  /// The resident table, when `state` is resident.
  func residentIfCurrent(for state: LuaState) -> LuaTable? {
    guard let resident, mirrors(state) else { return nil }
    return resident
  }

  /// Whether `state` is the resident table as it is now.
  private func mirrors(_ state: LuaState) -> Bool {
    mirrors(state, at: version)
  }

  /// Whether `state` is the resident table as it was at `version`.
  func mirrors(_ state: LuaState, at version: UInt64) -> Bool {
    state.residency == LuaState.Residency(replica: ObjectIdentifier(self), version: version)
  }

  /// Whether the action about to run leaves `state` a view (invariant 2): when the replica does
  /// not mirror, no other state holds `state`, and its view was not read. Otherwise settles
  /// `state`'s view into data and mirrors from now on. `state` is resident.
  func leavesView(_ state: inout LuaState) -> Bool {
    guard !mirroring else { return false }
    if state.view != nil {
      if isKnownUniquelyReferenced(&state.view), !state.view!.isRead { return true }
      // Read, or held by another state: those keep the value it has now.
      state.storage = state.view!.settle()
    } else if isKnownUniquelyReferenced(&state.box) {
      return true
    }
    mirroring = true
    return false
  }

  /// Decides how `state` follows the action `report` describes, reading now what patches need so
  /// that ``commit(_:_:report:into:)`` cannot fail. `inPlace`: whether the changes may be set in
  /// the state's fields directly, the commonest action, without planning (not when shared fields
  /// must see the patches).
  func prepare(
    _ report: inout ReducerCall.Report, for state: inout LuaState, asView: Bool, inPlace: Bool
  ) throws(LuaError) -> Update {
    if asView { return .view }
    if inPlace, !report.structural, !report.rereadAll, state.storage.setFields(report.changes) { return .fieldsSet }
    guard !report.changes.isEmpty || report.rereadAll, let resident else { return .patches([]) }
    return .patches(try plan(report, state: state, resident: resident))
  }

  /// Keeps the action's writes and brings `state` in step with the resident table as `update`
  /// says; `state` is then resident at the new `version`.
  func commit(
    _ call: consuming ReducerCall, _ update: Update, report: inout ReducerCall.Report,
    into state: inout LuaState
  ) {
    call.commit()
    version &+= 1
    state.residency = LuaState.Residency(replica: ObjectIdentifier(self), version: version)
    switch update {
    case .view:
      if state.view == nil {
        let view = ResidentView(of: self)
        state.view = view
        state.box = StateBox.empty
        currentView = view
      }
      lastViewChanges = (report.changes, report.unread, version)
    case .fieldsSet:
      lastViewChanges = (report.changes, [], version)
    case let .patches(patches):
      for (patch, reread) in patches { state.storage.apply(patch, reread: reread) }
      lastPatches = patches
    case let .patched(patches):
      lastPatches = patches
    }
  }

  /// Reads the current view, if any, so that its holders keep its value through the change to
  /// the resident table that follows (invariant 3).
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
      host.report(LuaFeatureError(error, kind: .reducer, feature: featureName))
      return .nil
    }
  }

  /// A full read of the resident table, `nil` before the first action: what a mirrored state
  /// must always equal (tests check it).
  func residentValue() throws(LuaError) -> LuaValue? {
    try resident?.value()
  }

  /// Plans the state's patches for an action's changes; reads containers whose shape changed now,
  /// so that applying cannot fail.
  private func plan(
    _ report: borrowing ReducerCall.Report, state: LuaState, resident: LuaTable
  ) throws(LuaError) -> [(StatePatch, LuaValue?)] {
    if report.rereadAll { return [(.replaceAll, try resident.value())] }
    // Without a table put or removed, no change lies inside another's table, and keys are not
    // repeated: each change is planned on its own (the common action: a few fields).
    if !report.structural, let patches = StatePatch.planIndependent(report.changes, on: state.storage) {
      return patches
    }
    var result: [(StatePatch, LuaValue?)] = []
    for patch in StatePatch.plan(report.changes, on: state.storage) {
      switch patch {
      case let .replace(path):
        result.append((patch, try host.vm.call(host.prelude.valueAt, resident, LuaValue.array(path), returning: LuaValue.self)))
      case .replaceAll:
        result.append((patch, try resident.value()))
      default:
        result.append((patch, nil))
      }
    }
    return result
  }

  /// The last action's changes as paths and values (see ``LuaReducer/lastChanges``).
  var lastChanges: [LuaStateChange] {
    if let (changes, unread, at) = lastViewChanges {
      return changes.enumerated().map { index, change in
        var value = change.value
        // A table put is read from the resident table, as the action left it.
        if at == version, let resident, unread.contains(index) {
          value = (try? host.vm.call(host.prelude.valueAt, resident, LuaValue.array(change.path + [change.key]), returning: LuaValue.self)) ?? .nil
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
