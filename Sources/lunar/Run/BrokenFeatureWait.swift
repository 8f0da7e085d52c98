import Foundation
import LuaFeatures

/// `lunar run --watch` with a feature that does not load: shows why, waits for one of its files
/// to change, and tries again, until a version loads.
@MainActor
enum BrokenFeatureWait {
  /// The feature at `location`, once it loads (`nil` if the watch ends first). Each failed attempt
  /// is shown as an error.
  static func load(_ location: FeatureLocation, host: LuaFeatureHost, output: SessionOutput) async -> LuaFeature? {
    let files = watchedFiles(location)
    let watcher = FileWatcher(files: files)
    defer { watcher.stop() }
    output.note("waiting for a fix: saving \(location.script.lastPathComponent) or another Lua file of its folder loads it again (ctrl-C stops)")
    for await _ in watcher.changes {
      do {
        return try host.load(location)
      } catch {
        output.error(error.pointingAtScript(location))
      }
    }
    return nil
  }

  /// The script and the Lua files beside it (and below, a few levels down): a broken module the
  /// script requires is among them.
  static func watchedFiles(_ location: FeatureLocation) -> [URL] {
    var files = [location.script.standardizedFileURL]
    let keys: [URLResourceKey] = [.isRegularFileKey]
    let walker = FileManager.default.enumerator(
      at: location.root, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles, .skipsPackageDescendants]
    )
    while let url = walker?.nextObject() as? URL, files.count < 500 {
      if walker?.level ?? 0 > 4 {
        walker?.skipDescendants()
        continue
      }
      guard url.pathExtension == "lua", (try? url.resourceValues(forKeys: Set(keys)).isRegularFile) == true else { continue }
      let file = url.standardizedFileURL
      if !files.contains(file) { files.append(file) }
    }
    return files
  }
}
