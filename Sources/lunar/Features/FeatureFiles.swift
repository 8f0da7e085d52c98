import ArgumentParser
import Foundation
import LuaFeatures
import LunarPlugins

/// Finding features on disk for `check` and `list`.
enum FeatureFiles {
  /// The features named by `paths`: scripts, feature folders, or folders holding feature folders.
  /// Without paths: the feature folders under `examples/` (or the current folder).
  @MainActor
  static func find(_ paths: [String]) throws -> [FeatureLocation] {
    let roots = paths.isEmpty ? [FileManager.default.fileExists(atPath: "examples") ? "examples" : "."] : paths
    var found: [FeatureLocation] = []
    for root in roots {
      if let location = resolve(root) {
        found.append(location)
        continue
      }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw ValidationError("no feature at \(root) (a .lua file, or a folder with \(FeatureLocation.entryNames.joined(separator: " or ")))")
      }
      let children = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
      let before = found.count
      for child in children.sorted() {
        let path = (root as NSString).appendingPathComponent(child)
        if let location = isPlugin(path) ? resolve(path) : try? FeatureLocation(resolving: path),
          location.script.pathExtension == "lua",
          FeatureLocation.entryNames.contains(location.script.lastPathComponent) || isPlugin(path)
        {
          found.append(location)
        }
      }
      // NB: A folder with nothing to check must not pass silently.
      guard found.count > before else {
        throw ValidationError("""
          no features under \(root): give .lua files, feature folders (with \
          \(FeatureLocation.entryNames.joined(separator: " or "))), or folders of feature folders
          """)
      }
    }
    return found
  }

  /// The feature at `path`: for a plugin's folder (one with a `plugin.lua`), the entry its
  /// manifest names; when the manifest cannot be read, the folder's `feature.lua`, or else the
  /// manifest itself, so that `check` reports what is wrong with it.
  @MainActor
  static func resolve(_ path: String) -> FeatureLocation? {
    guard isPlugin(path) else { return try? FeatureLocation(resolving: path) }
    let folder = URL(fileURLWithPath: path, isDirectory: true)
    if let host = try? LuaFeatureHost(), let manifest = try? PluginManifest.read(folder: folder, in: host),
      let location = try? FeatureLocation(resolving: manifest.entry.path)
    {
      return location
    }
    return (try? FeatureLocation(resolving: path))
      ?? (try? FeatureLocation(resolving: folder.appendingPathComponent(PluginManifest.fileName).path))
  }

  /// Whether `path` is a folder with a `plugin.lua`.
  static func isPlugin(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(PluginManifest.fileName))
  }

  static func display(_ file: URL) -> String {
    let cwd = FileManager.default.currentDirectoryPath + "/"
    return file.path.hasPrefix(cwd) ? String(file.path.dropFirst(cwd.count)) : file.path
  }
}
