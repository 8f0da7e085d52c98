import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport

extension RunSession {
  /// `--watch`: reloads the feature when its files change, and shows each reload.
  ///
  /// NB: reloads are applied on the main actor between two input lines or effect steps, never
  ///     inside one; input keeps being read meanwhile.
  func startWatching() {
    let reloader = HotReloader(feature: feature, reducer: luaReducer)
    self.reloader = reloader
    Task { @MainActor [weak self] in
      for await event in reloader.events {
        guard let self else { return }
        self.reloaded(event, by: reloader)
      }
    }
  }

  private func reloaded(_ event: HotReloadEvent, by reloader: HotReloader) {
    let root = feature.location?.root
    let error = event.error.map { error in feature.location.map { error.pointingAtScript($0) } ?? error }
    if event.succeeded {
      feature = reloader.feature
      stateRewritten = true
    }
    let files = event.changedFiles.map { file in
      guard let root, file.path.hasPrefix(root.path + "/") else { return file.path }
      return String(file.path.dropFirst(root.path.count + 1))
    }
    (output as? ReloadReporting)?.reload(milliseconds: event.milliseconds, files: files, error: error)
    inspector?.reloaded(files: files, error: error)
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
