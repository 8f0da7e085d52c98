import Foundation
import LuaFeatures
import LunarPlugins

/// `lunar run --watch` with a feature that does not load: shows why, waits for one of its files
/// to change, and tries again, until a version loads.
@MainActor
enum BrokenFeatureWait {
  /// The feature at `location`, loaded by `host` with its data in `data`, once it loads (`nil` if
  /// the watch ends first). Each failed attempt is shown as an error, through the host's events.
  static func load(
    _ location: FeatureLocation, data: LuaFeatureData, host: PluginHost, output: SessionOutput
  ) async -> Plugin? {
    let files = watchedFiles(location)
    let watcher = FileWatcher(files: files)
    defer { watcher.stop() }
    output.note("waiting for a fix: saving \(location.script.lastPathComponent) or another Lua file of its folder loads it again (ctrl-C stops)")
    for await _ in watcher.changes {
      if let plugin = try? host.load(feature: location, data: data) { return plugin }
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
