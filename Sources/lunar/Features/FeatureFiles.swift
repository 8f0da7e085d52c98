import ArgumentParser
import Foundation
import LuaFeatures

/// Finding features on disk for `check` and `list`.
enum FeatureFiles {
  /// The features named by `paths`: scripts, feature folders, or folders holding feature folders.
  /// Without paths: the feature folders under `examples/` (or the current folder).
  static func find(_ paths: [String]) throws -> [FeatureLocation] {
    let roots = paths.isEmpty ? [FileManager.default.fileExists(atPath: "examples") ? "examples" : "."] : paths
    var found: [FeatureLocation] = []
    for root in roots {
      if let location = try? FeatureLocation(resolving: root) {
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
        if let location = try? FeatureLocation(resolving: (root as NSString).appendingPathComponent(child)),
          location.script.pathExtension == "lua",
          FeatureLocation.entryNames.contains(location.script.lastPathComponent)
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

  static func display(_ file: URL) -> String {
    let cwd = FileManager.default.currentDirectoryPath + "/"
    return file.path.hasPrefix(cwd) ? String(file.path.dropFirst(cwd.count)) : file.path
  }
}
