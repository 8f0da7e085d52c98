import Composable
import Dependencies
import LuaBridge

/// One running copy of a feature: binds its `reduce` to its `deps`, runs each action as a
/// transaction on the resident state, and hands the effect to the translator.
///
/// It coordinates values each owned elsewhere:
///
/// - **The state** (`replica`; ``LuaStateReplica``): the resident table and how the store's state
///   follows it (view or mirror), with the invariants that keep the two in step.
/// - **The running version** (`feature`, `bound`; this file): `bound` is `feature`'s `reduce`
///   with this instance's `deps`, or nil until the next action makes it. Both change together,
///   through `use(_:)` (hot reload).
/// - **A reload's leftovers** (`pendingReload`; `Reload/`): set by a swap, taken by the next
///   action, never kept across two.
/// - **Shared values seen** (`sharedBindings`; `Shared/`): the versions of the shared values last
///   pulled into the state or pushed from it. A feature with shared fields is always mirrored.
/// - **Running effects** (`threads`; `Effects/`): the coroutine of every `fx.run` in flight, added
///   and removed by the effect that runs it, closed with the instance.
@MainActor
final class LuaFeatureInstance {
  /// The feature it runs; hot reload swaps it between two actions (see `swap(to:)`), through
  /// `use(_:)`.
  private(set) var feature: LuaFeature
  let dependencyOverrides: LuaTable?
  /// Whether the instance runs in a test (unmocked client methods fail), and the clients it runs
  /// for real there.
  let testing: Bool
  let realClients: [String]
  /// The resident state and the store's state as its view or mirror.
  let replica: LuaStateReplica
  private var bound: LuaFunction? {
    didSet { boundID = bound?.reference.registryID }
  }
  /// The registry id of `bound` (which keeps it alive): what the hot path passes, so that an
  /// action does not retain it.
  private var boundID: Int32?
  private var hasSharedFields: Bool
  private var dependencies: LuaTable?
  /// The coroutines of running effects, closed when the instance goes away.
  var threads: [ObjectIdentifier: LuaThread] = [:]
  /// A hot reload's work left for the next action (see `Reload/`).
  var pendingReload: PendingReload?
  /// The shared values behind the feature's shared fields, and the versions last seen (see
  /// `Shared/`); `nil` until the first action of a feature with shared fields.
  var sharedBindings: SharedBindings?

  /// The host and VM of every feature this instance runs (a reload keeps the host); stored rather
  /// than read through `feature`, which an action would retain.
  let host: LuaFeatureHost
  let vm: LuaVM

  init(feature: LuaFeature, dependencyOverrides: LuaTable?, testing: Bool = false, realClients: [String] = []) {
    self.feature = feature
    self.dependencyOverrides = dependencyOverrides
    self.testing = testing
    self.realClients = realClients
    self.host = feature.host
    self.vm = feature.host.vm
    self.hasSharedFields = !feature.sharedFields.isEmpty
    self.replica = LuaStateReplica(host: feature.host, featureName: feature.name, mirroring: !feature.sharedFields.isEmpty)
  }

  isolated deinit {
    for thread in threads.values { thread.close() }
  }

  /// Runs `action` as one transaction on the resident state: every write is kept and `state`
  /// brought in step, or (on any error, reported through the host) every write is undone.
  func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    var report = ReducerCall.Report(changes: replica.startAction())
    do {
      let sharing = hasSharedFields
      if sharing { try pullShared(into: &state) }
      let stateID = try replica.residentID(for: state)
      let asView = replica.leavesView(&state)
      let boundID = try self.boundID ?? boundReduce().reference.registryID
      // Open until the replica commits it; any throw before drops it, which rolls the action back.
      let call = try host.prelude.transaction.reduce(
        boundID, on: stateID, with: action, readingTables: !asView, into: &report)
      if let message = report.malformed { throw malformedEffect(message, action: action) }
      let effect = report.effect.isNil ? Effect<LuaValue>.none : try translate(report.effect, action: action)
      var update = try replica.prepare(&report, for: &state, asView: asView, inPlace: !sharing)
      var published: (keys: Set<String>, placed: [(binding: Int, location: [LuaValue])])? = nil
      if sharing, case let .patches(patches) = update {
        var changed = state
        var applied = false
        let work = sharedWork(for: patches.lazy.map(\.0), before: state.storage) {
          for (patch, reread) in patches { changed.storage.apply(patch, reread: reread) }
          applied = true
          return changed.storage
        }
        if let work {
          // Shared fields are saved before the state takes the change: a value that cannot be saved
          // fails the action, and the state must then be as it was.
          published = (try pushShared(work, state: changed, action: action), work.placed)
        }
        if applied {
          state = changed
          update = .patched(patches)
        }
      }
      replica.commit(call, update, report: &report, into: &state)
      if let published { syncShared(published.keys, placed: published.placed, into: &state) }
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

  /// The running version's view of `state`: from a copy of the resident table made in the VM when
  /// `state` is resident (neither pushed nor read into Swift, so a state left a view stays one),
  /// else from `state` pushed whole. Not after a swap before the next action: `migrate` has
  /// already rewritten the resident table, and `state` is the one before it.
  func render(_ state: LuaState) throws(LuaFeatureError) -> String? {
    guard pendingReload == nil, let resident = replica.residentIfCurrent(for: state) else {
      return try feature.render(state)
    }
    return try feature.render(resident: resident)
  }

  /// The error of a reducer that returned something other than an effect, at the feature's origin.
  private func malformedEffect(_ message: String, action: LuaValue) -> LuaFeatureError {
    let origin = feature.origin.split(separator: ":")
    return LuaFeatureError(
      kind: .malformedEffect, feature: feature.name, message: "\(feature.origin): \(message)",
      file: origin.first.map(String.init), line: origin.last.flatMap { Int($0) }, action: action
    )
  }

  /// Makes `feature` the running version from the next action on: its `reduce` is bound then
  /// (`deps` stay: same host, same overrides).
  func use(_ feature: LuaFeature) {
    self.feature = feature
    bound = nil
    hasSharedFields = !feature.sharedFields.isEmpty
    replica.featureName = feature.name
    if hasSharedFields { replica.mirrorForGood() }
  }

  /// The feature's `reduce` with its `deps` bound, made once per version.
  private func boundReduce() throws(LuaError) -> LuaFunction {
    if let bound { return bound }
    let function = try vm.call(host.prelude.bind, feature.reduce, try dependencyTable(), returning: LuaFunction.self)
    bound = function
    return function
  }

  /// The feature's initial state, an `initial` function built with this instance's `deps` (what a
  /// store whose dependencies are set, a test store, starts from).
  func initialValue() throws(LuaError) -> LuaValue {
    try feature.initialValue { () throws(LuaError) in try dependencyTable() }
  }

  /// A test's own initial state, `test.store(F, { initial = function(deps) … end })`, built with
  /// this instance's `deps`, as TCA evaluates a `TestStore`'s initial state with its dependencies.
  func initialValue(building make: LuaFunction) throws(LuaError) -> LuaValue {
    try LuaFeature.writable(try host.vm.call(make, try dependencyTable(), returning: LuaValue.self))
  }

  private func dependencyTable() throws(LuaError) -> LuaTable {
    if let dependencies { return dependencies }
    let table = try host.makeDependencies(
      overrides: dependencyOverrides, clients: feature.clients, testing: testing, realClients: realClients)
    dependencies = table
    return table
  }
}

extension LuaValue {
  /// Integral floats used as keys are integers in Lua (`t[1.0]` is `t[1]`).
  var normalizedKey: LuaValue {
    if case let .number(number) = self, let integer = Int64(exactly: number) { return .integer(integer) }
    return self
  }
}
