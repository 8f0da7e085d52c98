import Foundation

extension PluginHost {
  /// Watches `folder`, a folder of plugin folders, while the returned watch lives: a plugin folder
  /// added is loaded, one removed is unloaded, and one whose Lua files change is reloaded
  /// (atomically: a version that fails to load is reported and the running one keeps serving).
  ///
  /// ```swift
  /// host.loadAll(in: plugins)
  /// let watch = host.watch(plugins)      // keep it; `watch.cancel()` stops it
  /// ```
  ///
  /// Folders are compared by the text of their `.lua` files every `interval`; a change applies
  /// once it has held for one interval, so a burst of saves is one reload with the last text. A
  /// folder that failed to load is tried again when its files change. The events are the host's
  /// (``onEvent``).
  public func watch(_ folder: URL, interval: Duration = .milliseconds(250)) -> PluginWatch {
    let watch = PluginWatch(host: self, folder: folder.standardizedFileURL)
    watch.start(interval: interval)
    return watch
  }
}

/// A folder of plugins watched by a ``PluginHost`` (see ``PluginHost/watch(_:interval:)``).
@MainActor
public final class PluginWatch {
  private weak var host: PluginHost?
  /// The folder watched.
  public let folder: URL
  /// The fingerprint of each plugin folder as last applied (loaded, reloaded, or failed to).
  private var applied: [String: Int] = [:]
  /// The fingerprint of each plugin folder at the last scan.
  private var seen: [String: Int] = [:]
  private var task: Task<Void, Never>?

  init(host: PluginHost, folder: URL) {
    self.host = host
    self.folder = folder
    for child in PluginManifest.pluginFolders(in: folder) {
      let fingerprint = Self.fingerprint(of: child)
      seen[child.path] = fingerprint
      if host.plugin(at: child) != nil { applied[child.path] = fingerprint }
    }
  }

  deinit {
    task?.cancel()
  }

  /// Stops watching.
  public func cancel() {
    task?.cancel()
    task = nil
  }

  fileprivate func start(interval: Duration) {
    task = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        guard let self, !Task.isCancelled else { return }
        await self.scan()
      }
    }
  }

  /// Compares the folder with what was applied, and loads, unloads and reloads to match.
  func scan() async {
    guard let host else { return }
    let children = PluginManifest.pluginFolders(in: folder)
    let present = Set(children.map(\.path))
    for plugin in host.all where plugin.folder.deletingLastPathComponent().standardizedFileURL.path == folder.path {
      if !present.contains(plugin.folder.standardizedFileURL.path) {
        applied[plugin.folder.standardizedFileURL.path] = nil
        await host.unload(plugin.name)
      }
    }
    for path in applied.keys where !present.contains(path) { applied[path] = nil }
    for child in children {
      let path = child.path
      let fingerprint = Self.fingerprint(of: child)
      defer { seen[path] = fingerprint }
      // NB: act once a change has held for one scan: an editor's burst of writes is one reload.
      guard fingerprint != applied[path], fingerprint == seen[path] else { continue }
      applied[path] = fingerprint
      await apply(child, in: host)
    }
  }

  private func apply(_ child: URL, in host: PluginHost) async {
    guard let plugin = host.plugin(at: child) else {
      _ = try? host.load(child)
      return
    }
    do throws(PluginError) {
      host.onEvent(.reloaded(try host.replace(plugin.name)))
    } catch where error.kind == .name {
      // NB: the manifest renamed the plugin: it is another plugin now.
      await host.unload(plugin.name)
      _ = try? host.load(child)
    } catch {
      host.onEvent(.failed(error, reloading: true))
    }
  }

  /// A hash of the names and text of the `.lua` files in `folder` and its subfolders (hidden
  /// folders aside).
  static func fingerprint(of folder: URL) -> Int {
    var hasher = Hasher()
    let manager = FileManager.default
    guard let walker = manager.enumerator(
      at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { return 0 }
    var files: [URL] = []
    for case let url as URL in walker where url.pathExtension == "lua" { files.append(url) }
    for url in files.sorted(by: { $0.path < $1.path }) {
      hasher.combine(url.path)
      // NB: every byte: `Data`'s own hash reads only its first ones.
      let data = manager.contents(atPath: url.path) ?? Data()
      hasher.combine(data.count)
      data.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
    return hasher.finalize()
  }
}
