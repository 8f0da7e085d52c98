import Composable
import Dependencies
import Foundation
import IssueReporting
import LuaBridge
import LuaFeatures

/// What a Swift app embeds to run Lua plugins: it loads each plugin folder into a VM of its own,
/// with its own limits and grants, and loads, unloads and reloads them while the app runs.
///
/// ```swift
/// let host = PluginHost(policy: .grantRequested) { manifest in
///   var dependencies = LuaDependencies.builtIn
///   dependencies.offer(.http(.live))
///   dependencies.offer(.files(in: manifest.folder))
///   return dependencies                        // storage: the host's, in the plugin's data folder
/// }
/// host.onEvent = { event in print(event) }
/// host.loadAll(in: URL(fileURLWithPath: "plugins"))
/// host["counter"]?.send(["type": "increment"])
/// await host.unload("counter")
/// ```
///
/// - **Isolation.** Each plugin has its own ``LuaFeatureHost``: its VM (instruction budget, time
///   limit and memory ceiling), its dependencies, its shared values. A plugin that loops, raises
///   or runs out of memory fails alone; the others keep serving with their state.
/// - **Data.** Each plugin's `deps.storage` document and `lunar.shared` files live in a data folder
///   of its own, tied to its folder rather than to the name its manifest declares
///   (``dataFolder(for:name:in:)``), and take at most its ``PluginGrants/dataLimit`` together.
/// - **Grants.** The app offers dependencies per plugin (`offering`); the plugin reaches only
///   those its ``PluginPolicy`` granted, whatever else is offered.
/// - **Lifecycle.** ``load(_:)``, ``unload(_:timeout:)`` (effects cancelled, the VM freed once
///   nothing holds the plugin), ``reload(_:)`` (atomic: the old version serves until the new one
///   has loaded), ``watch(_:interval:)`` for a folder of plugins.
///
/// Like ``LuaFeatureHost`` and `Store`, it lives on the main actor.
@MainActor
public final class PluginHost {
  /// The plugins loaded, by name.
  public internal(set) var plugins: [String: Plugin] = [:]
  /// Decides what each plugin gets.
  public var policy: PluginPolicy
  /// The limits each plugin's VM gets unless the policy decides otherwise.
  public var limits: LuaVM.Limits
  /// The seed of `math.random` in plugins loaded from now on.
  public var randomSeed: UInt64
  /// Where plugins keep their data: each plugin's `deps.storage` document and `lunar.shared` files
  /// go to its own folder in it (``dataFolder(for:name:in:)``). By default ``defaultDataFolder``;
  /// `nil` keeps every plugin's data in memory.
  public var dataFolder: URL?
  /// The bytes each plugin's storage document and shared files may take together, unless the
  /// policy decides otherwise (`nil`: no limit). ``defaultDataLimit`` by default.
  public var dataLimit: Int? = PluginHost.defaultDataLimit
  /// Where plugins' data is read and written under ``dataFolder``: the `defaultFileStorage`
  /// dependency when the host was made (the real file system, or memory under a test).
  public var fileStorage: FileStorage
  /// Whether the host offers each plugin `storage` in its data folder, when ``offering`` does not
  /// offer a `storage` of its own.
  public var offersStorage = true
  /// Receives what happens to the plugins. By default, errors and failures are reported as
  /// issues and printed text goes to standard output.
  public var onEvent: @MainActor (PluginEvent) -> Void = PluginHost.defaultEventHandler

  /// What the app offers a plugin, before grants: its dependencies (capabilities and clients).
  let offering: @MainActor (PluginManifest) -> LuaDependencies

  /// A host that offers each plugin what `offering` returns for its manifest, and grants what
  /// `policy` decides.
  ///
  /// - Parameters:
  ///   - policy: Decides each plugin's grants (and limits).
  ///   - limits: Each plugin VM's limits, unless the policy decides otherwise.
  ///   - randomSeed: The seed of `math.random`.
  ///   - offering: The dependencies the app offers a plugin (start from `.builtIn`).
  public init(
    policy: PluginPolicy = .grantRequested, limits: LuaVM.Limits = .default, randomSeed: UInt64 = 0,
    offering: @escaping @MainActor (PluginManifest) -> LuaDependencies = { _ in .builtIn }
  ) {
    self.policy = policy
    self.limits = limits
    self.randomSeed = randomSeed
    self.offering = offering
    self.dataFolder = Self.defaultDataFolder
    @Dependency(\.defaultFileStorage) var fileStorage
    self.fileStorage = fileStorage
  }

  /// Where plugins' data goes by default: `<data>/lunar/plugins`, where `<data>` is
  /// `$XDG_DATA_HOME`, else `~/.local/share`.
  public nonisolated static var defaultDataFolder: URL {
    LuaFeatureData.defaultRoot("plugins")
  }

  /// The bytes a plugin's storage document and shared files may take together by default: 16 MiB,
  /// room for settings, drafts and backups, while each change still rewrites a whole document in
  /// a fraction of a second.
  public nonisolated static let defaultDataLimit = LuaFeatureData.defaultLimit

  /// The data folder of the plugin in `pluginFolder`, named `name`, under `root`:
  /// `<root>/<name>-<16 hex digits>`, the digits the start of the SHA-256 of the plugin folder's
  /// real path (symlinks resolved).
  ///
  /// Another folder declaring the same name gets another data folder: a plugin's data belongs to
  /// the folder it was loaded from, not to the name its manifest declares. The name is only there
  /// for people reading the folder. A plugin folder that moves starts with no data; its old data
  /// stays where it was (move it into the new folder by hand).
  public nonisolated static func dataFolder(for pluginFolder: URL, name: String, in root: URL) -> URL {
    LuaFeatureData.folder(for: pluginFolder, name: name, in: root)
  }

  /// The plugin named `name`, if loaded.
  public subscript(name: String) -> Plugin? { plugins[name] }

  /// The plugins loaded, sorted by name.
  public var all: [Plugin] { plugins.values.sorted { $0.name < $1.name } }

  /// The loaded plugin whose folder is `folder`.
  public func plugin(at folder: URL) -> Plugin? {
    let path = folder.standardizedFileURL.path
    return plugins.values.first { $0.folder.standardizedFileURL.path == path }
  }

  /// Loads the plugin in `folder`: reads its manifest, decides its grants, loads its feature in a
  /// VM of its own, and starts its main session.
  ///
  /// - Throws: ``PluginError``: no plugin there, a manifest in error, an API this host does not
  ///   offer, a capability the app does not offer, a name already loaded, a feature that does
  ///   not load. The failure is also sent to ``onEvent``.
  @discardableResult
  public func load(_ folder: URL) throws(PluginError) -> Plugin {
    do {
      return adopt(try makePlugin(folder.standardizedFileURL))
    } catch {
      onEvent(.failed(error, reloading: false))
      throw error
    }
  }

  /// Registers a plugin just made and announces it.
  func adopt(_ plugin: Plugin) -> Plugin {
    plugins[plugin.name] = plugin
    onEvent(.loaded(plugin))
    return plugin
  }

  /// Loads every plugin folder directly inside `folder` (sorted by name), each on its own: one
  /// that fails is reported (to ``onEvent``) and the others load.
  ///
  /// - Returns: The outcome for each folder.
  @discardableResult
  public func loadAll(in folder: URL) -> [Result<Plugin, PluginError>] {
    PluginManifest.pluginFolders(in: folder).map { child in
      Result { () throws(PluginError) in try load(child) }
    }
  }

  private func makePlugin(_ folder: URL) throws(PluginError) -> Plugin {
    let luaHost = try makeLuaHost(for: folder)
    let manifest = try PluginManifest.read(folder: folder, in: luaHost)
    try checkNameIsFree(manifest)
    let data = makeData(for: manifest)
    let offered = offered(to: manifest, data: data)
    let grants = try decideGrants(for: manifest, offered: offered)
    return try assemble(manifest, grants: grants, offered: offered, data: data, luaHost: luaHost, ownFeature: nil)
  }

  /// A VM of its own for the plugin in `folder`, under the host's limits until its grants are decided.
  func makeLuaHost(for folder: URL) throws(PluginError) -> LuaFeatureHost {
    do {
      return try LuaFeatureHost(limits: limits, dependencies: .builtIn, randomSeed: randomSeed)
    } catch {
      let name = folder.lastPathComponent
      throw PluginError(.feature, plugin: name, folder: folder, message: error.message, featureError: error)
    }
  }

  /// Throws when a plugin of `manifest`'s name is already loaded.
  func checkNameIsFree(_ manifest: PluginManifest) throws(PluginError) {
    guard let loaded = plugins[manifest.name] else { return }
    throw PluginError(
      .name, plugin: manifest.name, folder: manifest.folder,
      message: """
        \(manifest.folder.path) declares the name \(manifest.name), but a plugin of that name is already loaded, from \
        \(loaded.folder.path); it was not loaded (plugins need names of their own: rename one of them; \
        their data is kept apart either way)
        """)
  }

  /// The plugin of `manifest`, in `luaHost`: its grants guarding what it was offered, its shared
  /// values in its data folder, its events sent to ``onEvent``, its feature loaded (from
  /// `ownFeature` when the user runs their own feature, from the manifest's entry otherwise).
  func assemble(
    _ manifest: PluginManifest, grants: PluginGrants, offered: LuaDependencies, data: LuaFeatureData,
    luaHost: LuaFeatureHost, ownFeature: FeatureLocation?
  ) throws(PluginError) -> Plugin {
    data.quota.limit = grants.dataLimit
    let gate = GrantGate(manifest: manifest, granted: grants, policy: policy)
    luaHost.limits = grants.limits
    luaHost.dependencies = gate.guarding(offered)
    // NB: a plugin's shared values are its own: another plugin declaring the same key (or the
    //     same name) neither sees them in memory nor shares their file.
    luaHost.shared.reset(registry: SharedRegistry(), fileStorage: data.fileStorage)
    luaHost.shared.folder = data.sharedFolder
    luaHost.shared.quota = data.quota
    let meter = PluginMeter()
    let name = manifest.name
    luaHost.onError = { [weak self] error in
      meter.failed(error)
      self?.onEvent(.error(plugin: name, error))
    }
    luaHost.onWarning = { [weak self] warning in self?.onEvent(.warning(plugin: name, warning)) }
    luaHost.vm.printHandler = { [weak self] text in
      MainActor.assumeIsolated { self?.onEvent(.printed(plugin: name, text: text)) }
    }
    let feature = try loadFeature(manifest, in: luaHost, from: ownFeature)
    return Plugin(
      manifest: manifest, grants: grants, luaHost: luaHost, feature: feature, gate: gate, meter: meter,
      data: data, ownFeature: ownFeature)
  }

  /// What the app offers the plugin of `manifest`, and `storage` in its data folder unless the
  /// app offers one of its own.
  func offered(to manifest: PluginManifest, data: LuaFeatureData) -> LuaDependencies {
    var offered = offering(manifest)
    if offersStorage, !offered.offered.contains("storage") { offered.offer(data.storage) }
    return offered
  }

  /// Where the plugin of `manifest` keeps its data, and its quota (the limit set once its grants
  /// are decided).
  private func makeData(for manifest: PluginManifest) -> LuaFeatureData {
    let root = dataFolder ?? Self.defaultDataFolder
    let data = LuaFeatureData(
      for: manifest.folder, name: manifest.name, in: root, fileStorage: dataFolder == nil ? .inMemory() : fileStorage,
      quota: LuaDataQuota(limit: dataLimit, owner: "plugin \(manifest.name)"))
    if dataFolder != nil { LuaFeatureData.noteEarlierPluginLayout(of: manifest.name, in: root, now: data) }
    return data
  }

  /// What the policy grants `manifest`, after checking that the app offers what it asks for.
  func decideGrants(for manifest: PluginManifest, offered: LuaDependencies) throws(PluginError) -> PluginGrants {
    let available = Set(offered.names.map(GrantGate.capability(of:)))
    if let missing = manifest.capabilities.names.sorted().first(where: { !available.contains($0) }) {
      let offers = available.subtracting(GrantGate.builtIn).sorted()
      throw PluginError(
        .unavailable, plugin: manifest.name, folder: manifest.folder,
        message: """
          it asks for the capability \(missing), which this host does not offer (it offers: \
          \(offers.isEmpty ? "none" : offers.joined(separator: ", ")))
          """,
        file: PluginManifest.fileName, line: ManifestSource(try? String(contentsOf: manifest.file, encoding: .utf8))
          .line(of: ["capabilities", missing]))
    }
    return policy.decide(manifest, PluginGrants(capabilities: manifest.capabilities, limits: limits, dataLimit: dataLimit))
  }

  /// Loads the feature of `manifest` in `luaHost`: the script at `ownFeature` when given, the
  /// manifest's entry otherwise.
  func loadFeature(
    _ manifest: PluginManifest, in luaHost: LuaFeatureHost, from ownFeature: FeatureLocation? = nil
  ) throws(PluginError) -> LuaFeature {
    do {
      let location: FeatureLocation
      do {
        location = try ownFeature ?? FeatureLocation(resolving: manifest.entry.path)
      } catch {
        throw PluginError(.feature, plugin: manifest.name, folder: manifest.folder, message: "\(error)")
      }
      return try luaHost.load(location)
    } catch let error as LuaFeatureError {
      throw PluginError(
        .feature, plugin: manifest.name, folder: manifest.folder, message: error.message, file: error.file,
        line: error.line, featureError: error)
    } catch {
      throw error as! PluginError
    }
  }

  /// Reports errors and failures as issues (warnings as warnings), and prints what plugins print.
  public static let defaultEventHandler: @MainActor (PluginEvent) -> Void = { event in
    switch event {
    case let .failed(error, _): reportIssue(error.description)
    case let .error(plugin, error): reportIssue("plugin \(plugin): \(error.description)")
    case let .warning(plugin, warning): reportIssue("plugin \(plugin): \(warning.description)", severity: .warning)
    case let .printed(plugin, text): print("[\(plugin)] \(text)")
    case .loaded, .reloaded, .unloaded: break
    }
  }
}
