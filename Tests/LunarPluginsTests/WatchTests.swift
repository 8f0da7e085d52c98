import Foundation
import LuaBridge
import LunarPlugins
import Testing

/// A watched folder of plugins: added folders load, removed ones unload, changed ones reload.
@MainActor
struct WatchTests {
  /// Waits (at most a minute: other tests may hold the main actor) until the harness has recorded
  /// `event`.
  func waitFor(_ event: String, in harness: PluginHarness) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
    while !harness.events.contains(event), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(harness.events.contains(event), "events: \(harness.events), failures: \(harness.failures)")
  }

  @Test func aWatchedFolderLoadsUnloadsAndReloadsItsPlugins() async throws {
    let harness = try PluginHarness()
    try harness.folders.plugin("counter", ["feature.lua": counterFeature])
    harness.host.loadAll(in: harness.folders.root)
    let watch = harness.host.watch(harness.folders.root, interval: .milliseconds(20))
    defer { watch.cancel() }
    harness.host["counter"]?.send(["type": "increment"])

    try harness.folders.plugin("added", ["feature.lua": counterFeature])
    try await waitFor("loaded added", in: harness)

    try harness.folders.plugin("counter", ["feature.lua": counterFeature.replacingOccurrences(of: "+ 1", with: "+ 5")])
    try await waitFor("reloaded counter", in: harness)
    harness.host["counter"]?.send(["type": "increment"])
    #expect(harness.host["counter"]?.state.count == 6)

    try harness.folders.plugin("counter", ["feature.lua": "this is not Lua"])
    try await waitFor("reload failed counter", in: harness)
    harness.host["counter"]?.send(["type": "increment"])
    #expect(harness.host["counter"]?.state.count == 11)

    try harness.folders.remove("added")
    try await waitFor("unloaded added", in: harness)

    try harness.folders.plugin("counter", ["feature.lua": counterFeature, "plugin.lua": manifest("tally")])
    try await waitFor("loaded tally", in: harness)
    #expect(harness.host.all.map(\.name) == ["tally"])
    #expect(harness.events == [
      "loaded counter", "loaded added", "reloaded counter", "reload failed counter", "unloaded added",
      "unloaded counter", "loaded tally",
    ])
  }
}
