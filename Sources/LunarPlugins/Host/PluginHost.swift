import Composable
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
///   dependencies.offer(.storage(file: LuaCapability.defaultStorageFile(for: manifest.name)))
///   return dependencies
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
  /// Where plugins' `lunar.shared` files go: `<folder>/<plugin>/shared/`. By default
  /// `<data>/lunar/plugins`, where `<data>` is `$XDG_DATA_HOME` or `~/.local/share`; `nil` keeps
  /// each plugin's shared values in memory.
  public var sharedFolder: URL?
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
    self.sharedFolder = Self.defaultDataFolder
  }

  /// Where plugins' data goes by default: `<data>/lunar/plugins`, where `<data>` is
  /// `$XDG_DATA_HOME`, else `~/.local/share`. Each plugin's is `<this>/<plugin name>/`.
  public nonisolated static var defaultDataFolder: URL {
    // NB: `<data>/lunar/storage/<name>.json` is where Lunar keeps a feature's storage: two up is `<data>/lunar`.
    LuaCapability.defaultStorageFile(for: "plugins").deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("plugins")
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
      let plugin = try makePlugin(folder.standardizedFileURL)
      plugins[plugin.name] = plugin
      onEvent(.loaded(plugin))
      return plugin
    } catch {
      onEvent(.failed(error, reloading: false))
      throw error
    }
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
    let fallbackName = folder.lastPathComponent
    let luaHost: LuaFeatureHost
    do {
      luaHost = try LuaFeatureHost(limits: limits, dependencies: .builtIn, randomSeed: randomSeed)
    } catch {
      throw PluginError(.feature, plugin: fallbackName, folder: folder, message: error.message, featureError: error)
    }
    let manifest = try PluginManifest.read(folder: folder, in: luaHost)
    if let loaded = plugins[manifest.name] {
      throw PluginError(
        .name, plugin: manifest.name, folder: folder,
        message: "a plugin named \(manifest.name) is already loaded, from \(loaded.folder.path); plugins need names of their own")
    }
    let offered = offering(manifest)
    let grants = try decideGrants(for: manifest, offered: offered)
    let gate = GrantGate(manifest: manifest, granted: grants, policy: policy)
    luaHost.vm.limits = grants.limits
    luaHost.dependencies = gate.guarding(offered)
    // NB: a plugin's shared values are its own: another plugin declaring the same key neither sees
    //     them in memory nor shares their file.
    if let sharedFolder {
      luaHost.shared.reset(registry: SharedRegistry(), fileStorage: luaHost.shared.fileStorage)
      luaHost.shared.folder = sharedFolder.appendingPathComponent(manifest.name).appendingPathComponent("shared")
    } else {
      luaHost.shared.reset(registry: SharedRegistry(), fileStorage: .inMemory())
    }
    let meter = PluginMeter()
    let name = manifest.name
    luaHost.onError = { [weak self] error in
      meter.failed(error)
      self?.onEvent(.error(plugin: name, error))
    }
    luaHost.vm.printHandler = { [weak self] text in
      MainActor.assumeIsolated { self?.onEvent(.printed(plugin: name, text: text)) }
    }
    let feature = try loadFeature(manifest, in: luaHost)
    return Plugin(manifest: manifest, grants: grants, luaHost: luaHost, feature: feature, gate: gate, meter: meter)
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
    return policy.decide(manifest, PluginGrants(capabilities: manifest.capabilities, limits: limits))
  }

  func loadFeature(_ manifest: PluginManifest, in luaHost: LuaFeatureHost) throws(PluginError) -> LuaFeature {
    do {
      let location: FeatureLocation
      do {
        location = try FeatureLocation(resolving: manifest.entry.path)
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

  /// Reports errors and failures as issues, and prints what plugins print.
  public static let defaultEventHandler: @MainActor (PluginEvent) -> Void = { event in
    switch event {
    case let .failed(error, _): reportIssue(error.description)
    case let .error(plugin, error): reportIssue("plugin \(plugin): \(error.description)")
    case let .printed(plugin, text): print("[\(plugin)] \(text)")
    case .loaded, .reloaded, .unloaded: break
    }
  }
}
