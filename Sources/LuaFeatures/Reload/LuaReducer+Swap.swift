import LuaBridge

extension LuaReducer {
  /// Makes this running reducer serve `feature` from the next action on, with the current state.
  ///
  /// ```swift
  /// let store = Store(initialState: counter.initialState) { reducer }
  /// store.send(["type": "increment"])             // count = 1, old `reduce`
  /// try reducer.swap(to: try counter.reload())    // the script changed on disk
  /// store.send(["type": "increment"])             // new `reduce`, from count = 1
  /// ```
  ///
  /// The swap is synchronous, on the main actor, so it never falls inside a reducer call or an
  /// effect's resumption: it lands between two actions. State stays as it is. If the new script
  /// defines `migrate(state)`, it runs once now on the current state, as a transaction like any
  /// reducer call: when it raises (or stores something that is not data), every write it made is
  /// undone and this reducer keeps its old version — nothing was applied.
  ///
  /// Effects already running when the swap happens **keep running the old code**: their
  /// coroutines hold the old functions (and the values they captured), and the actions they send
  /// are reduced by the new `reduce`. Effects started by later actions run the new code.
  ///
  /// > Important: `migrate` sees the state of the last action this reducer reduced. Before the
  /// > first action, or when the state was replaced from Swift since, it runs just before the next
  /// > action instead, on that action's state; if it fails then, the error is reported through the
  /// > host's ``LuaFeatureHost/onError`` and the old version reduces the action.
  ///
  /// - Parameter feature: The new version, loaded by the same host (see
  ///   ``LuaFeatureHost/reload(_:)``).
  /// - Throws: ``LuaFeatureError`` of kind `.migration` (with `file:line`) when `migrate` fails;
  ///   the old version keeps serving with the old state.
  @MainActor public func swap(to feature: LuaFeature) throws(LuaFeatureError) {
    try instance.swap(to: feature)
  }
}

/// What a swap left for the next action: the version to restore if a deferred `migrate` fails,
/// and the state `migrate` produced, for the store's snapshot.
struct PendingReload {
  /// The version that reduced the last action.
  var previous: LuaFeature
  /// The resident state's value after `migrate`, at the replica's `version` of that time.
  var migrated: (version: UInt64, value: LuaValue)?
}

extension LuaFeatureInstance {
  func swap(to newFeature: LuaFeature) throws(LuaFeatureError) {
    guard newFeature.host === host else {
      throw LuaFeatureError(
        kind: .load, feature: newFeature.name,
        message: "a reducer can only swap to a feature loaded by its own host (use host.reload(feature))"
      )
    }
    guard newFeature !== feature else { return }
    let previous = pendingReload?.previous ?? feature
    if let migrate = newFeature.migrate {
      if let resident = replica.resident {
        // A state that is a view keeps the value it had before `migrate` rewrites the table.
        replica.settleView()
        let value = try migrateState(resident, with: migrate, feature: newFeature.name)
        pendingReload = PendingReload(previous: previous, migrated: (replica.version, value))
      } else {
        pendingReload = PendingReload(previous: previous, migrated: nil)
      }
    }
    // The bound `reduce` closes over the old function: `use` makes it again on the next action.
    use(newFeature)
  }

  /// Brings the store's snapshot in line with a swap before the next action: takes the migrated
  /// state, or runs a deferred `migrate` on `state` (restoring the old version if it fails).
  func finishReload(into state: inout LuaState) {
    guard let pending = pendingReload else { return }
    pendingReload = nil
    if let migrated = pending.migrated, replica.mirrors(state, at: migrated.version) {
      // The resident table is already migrated; the snapshot keeps its link to it.
      state.storage = migrated.value
      return
    }
    guard let migrate = feature.migrate else { return }
    do {
      guard let table = try vm.reference(state.storage).table else {
        throw LuaFeatureError(
          kind: .migration, feature: feature.name, message: "the state of \(feature.name) must be a table"
        )
      }
      state.value = try migrateState(table, with: migrate, feature: feature.name)
    } catch {
      switch error {
      case let error as LuaFeatureError: host.report(error)
      case let error as LuaError: host.report(LuaFeatureError(error, kind: .migration, feature: feature.name))
      default: host.report(LuaFeatureError(kind: .migration, feature: feature.name, message: "\(error)"))
      }
      use(pending.previous)
    }
  }

  /// Runs `migrate(state)` on `table` as a transaction, and returns the migrated value; on
  /// failure every write is rolled back. Its writes obey the state's rules (plain data, stored as
  /// copies), as a reducer's do.
  private func migrateState(
    _ table: LuaTable, with migrate: LuaFunction, feature name: String
  ) throws(LuaFeatureError) -> LuaValue {
    do {
      let wrapper = try vm.call(try vm.load(Self.migrationSource, chunkName: "lunar_reload.lua"), migrate, returning: LuaFunction.self)
      return try host.prelude.transaction.run(wrapper, on: table)
    } catch {
      throw LuaFeatureError(error, kind: .migration, feature: name)
    }
  }

  /// Wraps `migrate` so that its results are ignored: it works on `state` in place.
  private static let migrationSource = """
    local migrate = ...
    return function(state) migrate(state) end
    """
}
