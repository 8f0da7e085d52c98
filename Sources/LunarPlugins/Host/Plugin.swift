import Composable
import Foundation
import LuaBridge
import LuaFeatures

/// A plugin loaded by a ``PluginHost``: its manifest and grants, its own VM, its feature, its
/// main session, and what it has cost so far.
///
/// ```swift
/// let dogs = try host.load(examples.appending(path: "dogs"))
/// dogs.send(["type": "dogs", "action": ["type": "onAppear"]])
/// print(dogs.render() ?? "")
/// print(dogs.accounting.actions)
/// ```
@MainActor
public final class Plugin {
  /// Whether it runs.
  public enum Status: String, Sendable {
    /// Loaded and serving.
    case running
    /// Unloaded: its reducers refuse every action, its effects were cancelled.
    case unloaded
  }

  /// Its manifest (a reload reads it again).
  public private(set) var manifest: PluginManifest
  /// What it was granted.
  public private(set) var grants: PluginGrants
  /// Its own engine: a VM, its dependencies and shared values. The plugin loads, reduces, renders,
  /// migrates and accounts through its ``FeatureEngine`` requirements.
  public let luaHost: LuaFeatureHost
  /// The version of its feature serving now.
  public private(set) var feature: LuaFeature
  /// Its main session: what ``send(_:)``, ``state`` and ``store`` use.
  public let main: PluginSession
  /// Running, or unloaded.
  public private(set) var status: Status = .running

  let meter: PluginMeter
  let gate: GrantGate
  /// Where its storage document and shared files are kept, and their quota.
  let data: LuaFeatureData
  /// The script the user runs as their own feature (``PluginHost/load(feature:data:)``), or `nil`
  /// for a plugin folder: a reload loads that script again, with no manifest read.
  let ownFeature: FeatureLocation?
  /// Every reducer made for it, weakly: a reload swaps them all to the new version.
  private var cores: [WeakCore] = []
  /// Every session made for it, weakly: unloading cancels their effects.
  private var sessions: [WeakSession] = []
  /// When the lists above are next pruned of what went away: when they have doubled, so that
  /// making many sessions costs constant time each.
  private var pruneSessionsAt = 64
  private var pruneCoresAt = 64

  init(
    manifest: PluginManifest, grants: PluginGrants, luaHost: LuaFeatureHost, feature: LuaFeature, gate: GrantGate,
    meter: PluginMeter, data: LuaFeatureData, ownFeature: FeatureLocation? = nil
  ) {
    self.data = data
    self.ownFeature = ownFeature
    self.manifest = manifest
    self.grants = grants
    self.luaHost = luaHost
    self.feature = feature
    self.gate = gate
    self.meter = meter
    let core = Self.makeCore(running: feature, in: luaHost, meter: meter)
    self.main = PluginSession(plugin: manifest.name, core: core, initialState: luaHost.initialState(of: feature))
    cores.append(WeakCore(core))
    sessions.append(WeakSession(main))
  }

  /// Its name.
  public var name: String { manifest.name }
  /// Its folder.
  public var folder: URL { manifest.folder }
  /// Its data folder: its `deps.storage` document (`storage.json`, when the host offers it) and
  /// its `lunar.shared` files (`shared/<key>.json`). See ``PluginHost/dataFolder(for:name:in:)``.
  public var dataFolder: URL { data.folder }
  /// What its storage document and shared files take together, and may take
  /// (``PluginGrants/dataLimit``).
  public var dataQuota: LuaDataQuota { data.quota }
  /// The main session's store.
  public var store: Store<LuaState, LuaValue> { main.store }
  /// The main session's state.
  public var state: LuaState { main.state }

  /// Sends an action to the main session.
  @discardableResult
  public func send(_ action: LuaValue) -> StoreTask {
    main.send(action)
  }

  /// The feature's view of `state` (the main session's by default), or `nil` without a `view`
  /// (or when it fails: the error goes to the host's events). The main session's state as its
  /// last action left it is rendered from the VM's resident table, with nothing pushed.
  public func render(_ state: LuaState? = nil) -> String? {
    do {
      return try luaHost.render(state ?? main.state, with: main.core.lua)
    } catch {
      luaHost.onError(error)
      return nil
    }
  }

  /// A new session: a store of its own running the plugin's feature in the plugin's VM, from
  /// `initialState` (the feature's by default).
  public func makeSession(initialState: LuaState? = nil) -> PluginSession {
    let core = makeCore()
    let session = PluginSession(plugin: name, core: core, initialState: initialState ?? luaHost.initialState(of: feature))
    if sessions.count >= pruneSessionsAt {
      sessions.removeAll { $0.session == nil }
      pruneSessionsAt = max(64, sessions.count * 2)
    }
    sessions.append(WeakSession(session))
    return session
  }

  /// The plugin's feature as a reducer, for a store of yours (see ``PluginReducer``).
  public func reducer() -> PluginReducer {
    PluginReducer(core: makeCore())
  }

  /// What it has cost so far.
  public var accounting: PluginAccounting {
    let live = sessions.compactMap(\.session)
    let percentiles = meter.percentiles()
    let usage = luaHost.usage
    return PluginAccounting(
      actions: meter.actions, p50: percentiles?.p50, p99: percentiles?.p99,
      effectsRunning: live.reduce(0) { $0 + $1.effectsRunning }, memoryInUse: usage.memoryInUse,
      memoryLimit: usage.memoryLimit, errors: meter.errors, lastError: meter.lastError?.message, sessions: live.count)
  }

  /// The files its current version was loaded from: the manifest (if any) and every Lua file
  /// the feature loaded.
  public var files: [URL] {
    (manifest.hasManifestFile ? [manifest.file] : []) + feature.loadedFiles
  }

  private func makeCore() -> PluginReducerCore {
    let core = Self.makeCore(running: feature, in: luaHost, meter: meter)
    if cores.count >= pruneCoresAt {
      cores.removeAll { $0.core == nil }
      pruneCoresAt = max(64, cores.count * 2)
    }
    cores.append(WeakCore(core))
    return core
  }

  /// A reducer core running `feature`, made by `engine`, counted by `meter`; an action a watched
  /// session refuses is reported as an error of the engine.
  private static func makeCore(running feature: LuaFeature, in engine: LuaFeatureHost, meter: PluginMeter) -> PluginReducerCore {
    let core = PluginReducerCore(lua: engine.reducer(for: feature), meter: meter)
    let name = feature.name
    core.refused = { [weak engine] problem in
      // NB: without the action, which JSON cannot hold: the error is written as JSON too.
      MainActor.assumeIsolated { engine?.onError(LuaFeatureError(kind: .reducer, feature: name, message: problem)) }
    }
    return core
  }

  /// Makes every running reducer serve `newFeature`, the main session's first: when its
  /// `migrate` fails, nothing changes and the error is thrown. Another session's failure is
  /// reported, and that session keeps the old version.
  func swap(to newFeature: LuaFeature, manifest newManifest: PluginManifest, grants newGrants: PluginGrants) throws(LuaFeatureError) {
    try luaHost.migrate(main.core.lua, to: newFeature)
    for core in cores.compactMap(\.core) where core !== main.core {
      do {
        try luaHost.migrate(core.lua, to: newFeature)
      } catch {
        luaHost.onError(error)
      }
    }
    feature = newFeature
    manifest = newManifest
    grants = newGrants
    gate.update(manifest: newManifest, granted: newGrants)
    luaHost.limits = newGrants.limits
    data.quota.limit = newGrants.dataLimit
  }

  /// Stops the plugin: its reducers refuse every action from now on; returns the tasks of the
  /// effects its sessions started, cancelled.
  func stop() -> [StoreTask] {
    status = .unloaded
    meter.isUnloaded = true
    return sessions.compactMap(\.session).flatMap { $0.cancelEffects() }
  }
}

private struct WeakCore {
  weak var core: PluginReducerCore?
  init(_ core: PluginReducerCore) { self.core = core }
}

private struct WeakSession {
  weak var session: PluginSession?
  init(_ session: PluginSession) { self.session = session }
}
