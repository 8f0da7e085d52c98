import Foundation
import LuaBridge
import LuaFeatures

extension PluginHost {
  /// Loads the feature at `location` (a `.lua` script, or a folder's `feature.lua` or `main.lua`)
  /// as one its user runs themselves, the way `lunar run` does: the user is trusted
  /// (docs/security.md), so it reaches every capability the app offers (on any host), whatever
  /// ``policy`` says, and any `plugin.lua` beside it is not read.
  ///
  /// It is named after its folder (whatever that name is), keeps its storage document and shared
  /// files in `data`, within `data`'s quota, and ``reload(_:)`` loads the same script again.
  ///
  /// ```swift
  /// let location = try FeatureLocation(resolving: "examples/counter/feature.lua")
  /// let data = LuaFeatureData(for: location.root, name: "counter", in: root, fileStorage: .fileSystem,
  ///                           quota: LuaDataQuota(limit: LuaFeatureData.defaultLimit, owner: "feature counter"))
  /// let counter = try host.load(feature: location, data: data)
  /// ```
  ///
  /// - Throws: ``PluginError``: a plugin of the folder's name already loaded, a feature that does
  ///   not load. The failure is also sent to ``onEvent``.
  @discardableResult
  public func load(feature location: FeatureLocation, data: LuaFeatureData) throws(PluginError) -> Plugin {
    do {
      let folder = location.root.standardizedFileURL
      let luaHost = try makeLuaHost(for: folder)
      let script = location.script.lastPathComponent
      let manifest = PluginManifest(
        name: folder.lastPathComponent, version: "0.0.0", feature: String(script.dropLast(".lua".count)),
        folder: folder, hasManifestFile: false)
      try checkNameIsFree(manifest)
      let offered = offered(to: manifest, data: data)
      let plugin = try assemble(
        manifest, grants: ownFeatureGrants(offered: offered, data: data), offered: offered, data: data,
        luaHost: luaHost, ownFeature: location)
      return adopt(plugin)
    } catch {
      onEvent(.failed(error, reloading: false))
      throw error
    }
  }

  /// What a feature its user runs gets: every capability offered, on any host, the host's limits,
  /// `data`'s quota, and a response's body up to the size any feature may bring in.
  func ownFeatureGrants(offered: LuaDependencies, data: LuaFeatureData) -> PluginGrants {
    let capabilities = Set(offered.names.map(GrantGate.capability(of:))).subtracting(GrantGate.builtIn)
    return PluginGrants(
      capabilities: PluginCapabilities(capabilities), limits: limits, dataLimit: data.quota.limit,
      httpResponseBytes: HTTPRequest.defaultMaximumResponseBytes)
  }
}
