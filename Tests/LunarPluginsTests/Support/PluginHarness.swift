import Foundation
import LuaBridge
import LuaFeatures
import LunarPlugins

/// A plugin host over a temporary folder, collecting its events.
@MainActor
final class PluginHarness {
  let folders: PluginFolders
  let host: PluginHost
  private(set) var events: [String] = []
  private(set) var failures: [PluginError] = []
  private(set) var errors: [(plugin: String, error: LuaFeatureError)] = []

  /// A host whose plugins may call `slow.wait()` (an asynchronous dependency that waits for a
  /// minute, or until cancelled) besides the built-ins.
  init(policy: PluginPolicy = .grantRequested, limits: LuaVM.Limits = .init(timePerCall: nil)) throws {
    folders = try PluginFolders()
    host = PluginHost(policy: policy, limits: limits) { _ in
      var dependencies = LuaDependencies.builtIn
      dependencies.async("slow.wait") { () async throws -> LuaNothing in
        try await Task.sleep(for: .seconds(60))
        return LuaNothing()
      }
      dependencies.sync("greeting.make") { (name: String) in "Hello, \(name)!" }
      return dependencies
    }
    host.dataFolder = nil
    host.onEvent = { [weak self] event in self?.record(event) }
  }

  private func record(_ event: PluginEvent) {
    switch event {
    case let .loaded(plugin): events.append("loaded \(plugin.name)")
    case let .reloaded(plugin): events.append("reloaded \(plugin.name)")
    case let .unloaded(name): events.append("unloaded \(name)")
    case let .failed(error, reloading):
      events.append("\(reloading ? "reload failed" : "failed") \(error.plugin)")
      failures.append(error)
    case let .error(plugin, error):
      events.append("error \(plugin)")
      errors.append((plugin, error))
    case let .printed(plugin, text): events.append("printed \(plugin): \(text)")
    case let .warning(plugin, warning): events.append("warning \(plugin): \(warning.description)")
    }
  }

  /// Writes a plugin and loads it.
  @discardableResult
  func load(_ name: String, _ files: [String: String]) throws -> Plugin {
    try host.load(try folders.plugin(name, files))
  }
}

/// A feature named `name` that counts `increment`s and fails as its actions ask: `spin` loops,
/// `boom` raises, `hog` allocates without end, `wait` starts an effect waiting on `slow.wait`.
func misbehaving(_ name: String) -> String {
  """
  local lunar = require "lunar"
  local fx = lunar.fx
  return lunar.feature {
    name = "\(name)",
    initial = { count = 0 },
    reduce = function(state, action, deps)
      local t = action.type
      if t == "increment" then
        state.count = state.count + 1
      elseif t == "spin" then
        state.count = -1
        while true do end
      elseif t == "boom" then
        state.count = -1
        error("boom")
      elseif t == "hog" then
        state.count = -1
        local hoard = {}
        for i = 1, math.maxinteger do hoard[i] = string.rep("x", 64) .. i end
      elseif t == "wait" then
        return fx.run(function(send)
          deps.slow.wait()
          send { type = "increment" }
        end)
      end
    end,
    view = function(state) return "count: " .. state.count end,
  }
  """
}
