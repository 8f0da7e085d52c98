import Foundation
import LuaFeatures
import LunarPlugins

extension LuaFeatureError {
  /// A load error that Lua located inside Lunar's own modules, pointed at the script's
  /// `lunar.feature` call instead.
  ///
  /// NB: `return lunar.feature { … }` is a tail call: by the time `lunar.feature` finds a missing
  ///     `initial` or `reduce`, the script's frame is gone, so Lua can only name the line in
  ///     `lunar/_base.lua`. The script's own line is what its author needs.
  func pointingAtScript(_ location: FeatureLocation) -> LuaFeatureError {
    guard kind == .load, let file, Self.preludeChunks.contains(file),
      let source = try? String(contentsOf: location.script, encoding: .utf8)
    else { return self }
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    guard let index = lines.firstIndex(where: { line in
      let code = line.split(separator: "--", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      return code.contains("lunar.feature")
    }) else { return self }
    var error = self
    error.file = location.script.lastPathComponent
    error.line = index + 1
    return error
  }
}

extension PluginError {
  /// Why the feature at `location`, run as a plugin of its own, did not load or reload: its
  /// feature's error pointed at the script (see ``LuaFeatureError/pointingAtScript(_:)``).
  func loadError(of location: FeatureLocation) -> LuaFeatureError {
    let error = featureError ?? LuaFeatureError(kind: .load, feature: location.script.lastPathComponent, message: message)
    return error.pointingAtScript(location)
  }
}
