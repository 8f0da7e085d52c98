import Foundation
import LuaFeatures
import LunarPlugins

extension FeatureCheck {
  /// Checks the manifest of the plugin whose folder holds `location` (its `plugin.lua`), adding
  /// what is wrong with it to `report`; returns whether there is a feature to check as well (not
  /// when `location` is the manifest itself, because its entry could not be found).
  static func checkManifest(_ location: FeatureLocation, into report: inout Report) -> Bool {
    let file = location.root.appendingPathComponent(PluginManifest.fileName)
    guard FileManager.default.fileExists(atPath: file.path) else { return true }
    do {
      let host = try LuaFeatureHost()
      host.shared.reset(fileStorage: .inMemory())
      report.manifest = try PluginManifest.read(folder: location.root, in: host)
    } catch let error as PluginError {
      report.problems.append(Problem(message: error.message, file: error.file, line: error.line))
    } catch {
      report.problems.append(Problem(message: "\(error)", file: PluginManifest.fileName, line: nil))
    }
    return location.script.lastPathComponent != PluginManifest.fileName
  }
}
