import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures

/// A feature in a temporary folder, running in a store, with hot reload on: the scripts can be
/// rewritten on disk and the reload events awaited.
@MainActor
final class ReloadFixture {
  let folder: URL
  let harness: FeatureHarness
  let feature: LuaFeature
  let reducer: LuaReducer
  let store: Store<LuaState, LuaValue>
  let reloader: HotReloader
  private(set) var events: [HotReloadEvent] = []

  /// Writes `files` (name → text; `feature.lua` is the entry) and starts the store and the reloader.
  init(
    _ files: [String: String], dependencies: LuaDependencies = .builtIn,
    quietPeriod: Duration = .milliseconds(25), mechanism: FileWatcher.Mechanism = .automatic
  ) throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lunar-reload-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8) }
    harness = try FeatureHarness(dependencies: dependencies)
    feature = try harness.host.load(FeatureLocation(resolving: folder.appendingPathComponent("feature.lua").path))
    reducer = feature.reducer()
    let reducer = self.reducer
    store = Store(initialState: feature.initialState) { reducer }
    reloader = HotReloader(feature: feature, reducer: reducer, quietPeriod: quietPeriod, mechanism: mechanism)
    let stream = reloader.events
    Task { @MainActor [weak self] in
      for await event in stream { self?.events.append(event) }
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Rewrites `name` in place (truncate, write, close), as most tools do.
  func write(_ name: String, _ text: String) throws {
    try text.write(to: url(name), atomically: false, encoding: .utf8)
  }

  /// Saves `name` as many editors do: a temporary file in the same folder, renamed over it.
  func renameOver(_ name: String, _ text: String) throws {
    let temporary = folder.appendingPathComponent(".\(name).swp")
    try text.write(to: temporary, atomically: false, encoding: .utf8)
    guard rename(temporary.path, url(name).path) == 0 else { throw CocoaError(.fileWriteUnknown) }
  }

  func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

  /// The reload event number `index` (0-based), waiting for it at most `timeout` seconds.
  ///
  /// NB: generous: at the start of a full run every suite starts at once and the command-line tests
  ///     spawn dozens of processes on a machine of two cores; the first reload has been seen to
  ///     take 40 seconds then. A reload that does come costs no more for it.
  func event(_ index: Int, timeout: Double = 90) async throws -> HotReloadEvent {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while events.count <= index {
      guard Date() < deadline else { throw ReloadTimeout(index: index, seen: events.count) }
      try await Task.sleep(for: .milliseconds(5))
    }
    return events[index]
  }

  /// Waits `duration`, for tests that check that nothing more happens.
  func settle(_ duration: Duration = .milliseconds(400)) async throws {
    try await Task.sleep(for: duration)
  }

  @discardableResult
  func send(_ type: String) -> StoreTask {
    store.send(["type": .text(type)])
  }
}

struct ReloadTimeout: Error, CustomStringConvertible {
  var index: Int
  var seen: Int
  var description: String { "no reload event #\(index + 1) (saw \(seen))" }
}

/// A counter whose `increment` adds `step`, defined at line 6 of its file.
func counterScript(step: Int, name: String = "Counter", extra: String = "") -> String {
  """
  local lunar = require "lunar"
  return lunar.feature {
    name = "\(name)",
    initial = { count = 0 },
    reduce = function(state, action)
      if action.type == "increment" then state.count = state.count + \(step) end
    end,\(extra)
  }
  """
}
