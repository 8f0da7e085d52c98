import Foundation
import LuaBridge
import LuaFeatures
import LunarPlugins
import Testing

/// A feature its user runs (`lunar run`), loaded as a plugin: the script given, trusted with what
/// the app offers, its data where the app says.
@MainActor
struct OwnFeatureTests {
  /// A feature adding `step` on `increment`.
  static func adding(_ step: Int) -> String {
    counterFeature.replacingOccurrences(of: "state.count + 1", with: "state.count + \(step)")
  }

  /// A feature keeping the greeting `deps.greeting.make` answers, or its error.
  static let greeter = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Greeter",
      initial = {},
      reduce = function(state, action, deps)
        local ok, result = pcall(deps.greeting.make, "Ada")
        state.result = ok and result or tostring(result)
      end,
    }
    """

  @Test func aScriptIsLoadedWithoutTheFolderManifestAndReloadsItself() throws {
    let harness = try PluginHarness()
    // NB: neither the manifest (an API this host does not offer) nor feature.lua is what runs.
    let folder = try harness.folders.plugin("my tools", [
      "plugin.lua": manifest("tools", api: 9), "feature.lua": counterFeature, "other.lua": Self.adding(10),
    ])
    let script = folder.appendingPathComponent("other.lua")

    let plugin = try harness.host.load(feature: FeatureLocation(resolving: script.path), data: Self.data(for: folder))
    plugin.send(["type": "increment"])
    try Self.adding(100).write(to: script, atomically: true, encoding: .utf8)
    try harness.host.reload(plugin.name)
    plugin.send(["type": "increment"])

    #expect(plugin.name == "my tools")
    #expect(plugin.state.count.integerValue == 110)
    #expect(plugin.files.map(\.lastPathComponent) == ["other.lua"])
    #expect(harness.events == ["loaded my tools", "reloaded my tools"])
  }

  @Test func theUsersFeatureReachesEveryCapabilityOfferedWhateverThePolicy() throws {
    let harness = try PluginHarness(policy: .grantNothing)
    let plugin = try harness.load("greeter", ["feature.lua": Self.greeter])
    let folder = try harness.folders.plugin("own", ["feature.lua": Self.greeter])
    let own = try harness.host.load(feature: FeatureLocation(resolving: folder.path), data: Self.data(for: folder))

    plugin.send(["type": "greet"])
    own.send(["type": "greet"])

    #expect(plugin.state.result.stringValue?.contains("greeting") == true, "\(plugin.state)")
    #expect(plugin.state.result.stringValue != "Hello, Ada!")
    #expect(own.state.result.stringValue == "Hello, Ada!")
    #expect(own.grants.capabilities == PluginCapabilities(["greeting", "slow", "storage"]))
    #expect(own.grants.capabilities.httpHosts == nil)
  }

  @Test func theUsersFeatureKeepsItsDataInTheFolderAndQuotaItIsGiven() throws {
    let harness = try PluginHarness()
    harness.host.dataFolder = harness.folders.root.appendingPathComponent("plugins-data")
    let folder = try harness.folders.plugin("notes", ["feature.lua": counterFeature])
    let data = Self.data(for: folder, limit: 1234)

    let plugin = try harness.host.load(feature: FeatureLocation(resolving: folder.path), data: data)

    #expect(plugin.dataFolder == data.folder)
    #expect(plugin.dataQuota === data.quota)
    #expect(plugin.grants.dataLimit == 1234)
    #expect(plugin.luaHost.shared.folder == data.sharedFolder)
  }

  @Test func theUsersFeatureCannotTakeTheNameOfALoadedPlugin() throws {
    let harness = try PluginHarness()
    try harness.load("counter", ["feature.lua": counterFeature])
    let other = try harness.folders.plugin("elsewhere/counter", ["feature.lua": counterFeature])

    #expect(throws: PluginError.self) {
      try harness.host.load(feature: FeatureLocation(resolving: other.path), data: Self.data(for: other))
    }
    #expect(harness.events == ["loaded counter", "failed counter"])
  }

  /// Data kept in memory for the feature in `folder`, under a quota of `limit` bytes.
  static func data(for folder: URL, limit: Int? = nil) -> LuaFeatureData {
    LuaFeatureData(
      for: folder, name: folder.lastPathComponent, in: URL(fileURLWithPath: "/tmp/lunar-own-feature-data"),
      fileStorage: .inMemory(), quota: LuaDataQuota(limit: limit, owner: "feature \(folder.lastPathComponent)"))
  }
}
