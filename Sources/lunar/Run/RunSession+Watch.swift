import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport
import LunarPlugins

extension RunSession {
  /// `--watch`: reloads the feature through its host when its files change, and shows each reload.
  ///
  /// NB: reloads are applied on the main actor between two input lines or effect steps, never
  ///     inside one; input keeps being read meanwhile.
  func startWatching() {
    let watcher = FileWatcher(files: plugin.files)
    self.watcher = watcher
    Task { @MainActor [weak self] in
      for await change in watcher.changes {
        guard let self else { return }
        self.reload(changed: change.files, watcher: watcher)
      }
    }
  }

  /// Reloads the feature (``PluginHost/reload(_:)``: the running version serves until the new one
  /// has loaded and migrated the state), then shows how long it took and what changed.
  private func reload(changed: [URL], watcher: FileWatcher) {
    let clock = ContinuousClock()
    let start = clock.now
    var failure: LuaFeatureError?
    let initialBefore = plugin.luaHost.initialState(of: feature).value
    do {
      try host.reload(plugin.name)
      // NB: `migrate` may have rewritten the state outside of any action's changes.
      stateRewritten = true
      watcher.watch(plugin.files)
    } catch {
      failure = feature.location.map(error.loadError(of:)) ?? error.featureError
      // NB: keep watching what the running version loaded, and what changed (a new module that
      //     failed to load is watched, so that fixing it reloads).
      watcher.watch(Array(Set(plugin.files + changed)).sorted { $0.path < $1.path })
    }
    let elapsed = (clock.now - start).components
    let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    let root = feature.location?.root
    let files = changed.map { file in
      guard let root, file.path.hasPrefix(root.path + "/") else { return file.path }
      return String(file.path.dropFirst(root.path.count + 1))
    }
    (output as? ReloadReporting)?.reload(milliseconds: milliseconds, files: files, error: failure)
    inspector?.reloaded(files: files, error: failure)
    // NB: a version with `migrate` adapts the kept state itself.
    if failure == nil, !feature.hasMigration {
      warnOfInitialChanges(from: initialBefore, to: plugin.luaHost.initialState(of: feature).value)
      onReload?()
    }
  }

  /// Warns when `initial` gained fields the kept state lacks, or lost fields it still has: the
  /// next actions would read `nil` or stale fields (`migrate` adapts the kept state; `:reset`
  /// starts over).
  private func warnOfInitialChanges(from old: LuaValue, to new: LuaValue) {
    var gained: [String] = []
    var lost: [String] = []
    Self.compareFields(old: old, new: new, state: store.state.value, path: [], gained: &gained, lost: &lost)
    guard !gained.isEmpty || !lost.isEmpty else { return }
    var parts: [String] = []
    if !gained.isEmpty { parts.append("initial gained \(gained.joined(separator: ", ")), which the kept state lacks") }
    if !lost.isEmpty { parts.append("initial lost \(lost.joined(separator: ", ")), which the kept state still has") }
    output.warning(parts.joined(separator: "; ") + " (write migrate(state) to adapt the kept state, or type :reset to start over)")
  }

  private static func compareFields(
    old: LuaValue, new: LuaValue, state: LuaValue, path: [LuaValue], gained: inout [String], lost: inout [String]
  ) {
    guard case let .table(newFields) = new, case let .table(stateFields) = state else { return }
    let oldFields: [LuaString: LuaValue] = if case let .table(fields) = old { fields } else { [:] }
    for key in newFields.keys.sorted() {
      let name = ValueText.keys(path + [.string(key)])
      if stateFields[key] == nil, oldFields[key] == nil {
        gained.append(name)
      } else if let inState = stateFields[key], let inOld = oldFields[key], path.count < 8 {
        compareFields(old: inOld, new: newFields[key]!, state: inState, path: path + [.string(key)], gained: &gained, lost: &lost)
      }
    }
    for key in oldFields.keys.sorted() where newFields[key] == nil && stateFields[key] != nil {
      lost.append(ValueText.keys(path + [.string(key)]))
    }
  }
}

/// An output that shows hot reloads.
@MainActor
protocol ReloadReporting {
  func reload(milliseconds: Double, files: [String], error: LuaFeatureError?)
}

extension JSONSessionOutput: ReloadReporting {
  func reload(milliseconds: Double, files: [String], error: LuaFeatureError?) {
    emit(.reload(milliseconds: milliseconds, files: files, failure: error.map(HostEvent.FeatureFailure.init)))
  }
}

extension TextSessionOutput: ReloadReporting {
  func reload(milliseconds: Double, files: [String], error: LuaFeatureError?) {
    let changed = files.isEmpty ? "" : " " + files.joined(separator: ", ")
    if let error {
      let place = error.location.map { "\($0): " } ?? ""
      let message = error.message.hasPrefix(place) ? error.message : place + error.message
      printError(Terminal.standardError.red("↻ reload failed\(changed): \(message)"))
      printError(Terminal.standardError.dim("  the running version keeps serving, with its state"))
    } else {
      print(terminal.green("↻ reloaded\(changed)") + terminal.dim(String(format: " (%.1f ms, state kept)", milliseconds)))
    }
    flushStandardOutput()
  }
}
