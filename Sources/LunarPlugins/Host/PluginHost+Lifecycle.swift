import Composable
import Foundation
import LuaFeatures

extension PluginHost {
  /// Unloads the plugin `name`: its reducers refuse every action from now on, the effects its
  /// sessions started are cancelled, and this waits until they have ended (at most `timeout`).
  ///
  /// Its VM, with everything its scripts held, is freed as soon as nothing holds the plugin: the
  /// host lets go of it here; drop your own references to it and its sessions. Persisted data is
  /// already on disk: shared files and `deps.storage` are written by each change.
  ///
  /// - Returns: Whether every effect ended within `timeout` (an asynchronous dependency that does
  ///   not honour cancellation can hold one longer; its results are dropped).
  @discardableResult
  public func unload(_ name: String, timeout: Duration = .seconds(2)) async -> Bool {
    guard let plugin = plugins.removeValue(forKey: name) else { return true }
    let tasks = plugin.stop()
    let ended = await Self.wait(for: tasks, timeout: timeout)
    onEvent(.unloaded(name: name))
    return ended
  }

  /// Reloads the plugin `name` from its folder, atomically: reads its manifest again, decides its
  /// grants, loads its feature in a fresh sandbox of its VM, and only if all of that succeeds,
  /// makes every session serve the new version with its current state (the script's
  /// `migrate(state)`, if any, adapts it). Until then, and if anything fails, the old version
  /// keeps serving. Effects already running finish with the old code.
  ///
  /// - Throws: ``PluginError``: what ``load(_:)`` can throw, a manifest that renames the plugin
  ///   (unload it and load the folder again), or a `migrate` that fails (kind `.feature`). The
  ///   failure is also sent to ``onEvent``.
  @discardableResult
  public func reload(_ name: String) throws(PluginError) -> Plugin {
    do {
      let plugin = try replace(name)
      onEvent(.reloaded(plugin))
      return plugin
    } catch {
      onEvent(.failed(error, reloading: true))
      throw error
    }
  }

  /// ``reload(_:)`` without its events.
  func replace(_ name: String) throws(PluginError) -> Plugin {
    guard let plugin = plugins[name] else {
      throw PluginError(.notLoaded, plugin: name, folder: URL(fileURLWithPath: name), message: "no plugin named \(name) is loaded")
    }
    if plugin.ownFeature != nil {
      let offered = offered(to: plugin.manifest, data: plugin.data)
      // NB: as a hot reload does: the state is kept, so the new version's `initial` is read
      //     only if asked for.
      let feature: LuaFeature
      do {
        feature = try plugin.luaHost.reload(plugin.feature)
      } catch {
        throw PluginError(
          .feature, plugin: name, folder: plugin.folder, message: error.message, file: error.file, line: error.line,
          featureError: error)
      }
      try swap(plugin, to: feature, manifest: plugin.manifest, grants: ownFeatureGrants(offered: offered, data: plugin.data))
      return plugin
    }
    let manifest = try PluginManifest.read(folder: plugin.folder, in: plugin.luaHost)
    guard manifest.name == name else {
      throw PluginError(
        .name, plugin: name, folder: plugin.folder,
        message: "its plugin.lua now names it \(manifest.name); a plugin keeps its name while loaded (unload it and load the folder again)",
        file: PluginManifest.fileName)
    }
    let grants = try decideGrants(for: manifest, offered: offered(to: manifest, data: plugin.data))
    let feature = try loadFeature(manifest, in: plugin.luaHost)
    try swap(plugin, to: feature, manifest: manifest, grants: grants)
    return plugin
  }

  /// Makes `plugin` serve `feature` (see ``Plugin/swap(to:manifest:grants:)``); a failing `migrate`
  /// is thrown as a ``PluginError`` of kind `.feature`.
  private func swap(
    _ plugin: Plugin, to feature: LuaFeature, manifest: PluginManifest, grants: PluginGrants
  ) throws(PluginError) {
    do throws(LuaFeatureError) {
      try plugin.swap(to: feature, manifest: manifest, grants: grants)
    } catch {
      throw PluginError(
        .feature, plugin: plugin.name, folder: plugin.folder, message: error.message, file: error.file,
        line: error.line, featureError: error)
    }
  }

  /// Waits until every task has ended, or `timeout` passes; returns whether they all ended.
  static func wait(for tasks: [StoreTask], timeout: Duration) async -> Bool {
    guard !tasks.isEmpty else { return true }
    return await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for task in tasks { await task.finish() }
        return true
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
  }
}
