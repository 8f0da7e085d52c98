import Foundation
import LuaFeatures
import LunarPlugins

extension FuzzTarget {
  /// A plugin's `plugin.lua`, read as `lunar host` reads it, next to a feature that loads.
  static let manifest = FuzzTarget(name: "manifest", summary: "a plugin's plugin.lua") { input in
    guard let host = ManifestTarget.host else { return }
    _ = FuzzScratch.write(input, to: "plugin/plugin.lua")
    _ = try? PluginManifest.read(folder: ManifestTarget.folder, in: host)
  }
}

@MainActor
private enum ManifestTarget {
  static let folder: URL = {
    let feature = #"return require("lunar").feature { name = "F", initial = {}, reduce = function() end }"#
    return FuzzScratch.write(Array(feature.utf8), to: "plugin/feature.lua").deletingLastPathComponent()
  }()

  static let host = try? LuaFeatureHost(limits: FuzzScratch.limits)
}
