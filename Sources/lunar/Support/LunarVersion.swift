import LunarPlugins

extension Lunar {
  /// This build's version, as `lunar --version` prints it: the release, and the version of the Lua
  /// API its plugins declare (`api = 1` in `plugin.lua`).
  static let version = "0.1.0 (Lua API \(PluginManifest.currentAPI))"
}
