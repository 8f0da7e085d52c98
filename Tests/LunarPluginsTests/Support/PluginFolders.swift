import Foundation

/// Plugin folders written for one test, in a temporary folder removed when it goes away.
final class PluginFolders {
  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("lunar-plugins-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: root)
  }

  /// Writes `files` (name → text) into the folder `name`, and returns the folder.
  @discardableResult
  func plugin(_ name: String, _ files: [String: String]) throws -> URL {
    let folder = root.appendingPathComponent(name, isDirectory: true)
    for (file, text) in files {
      let url = folder.appendingPathComponent(file)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return folder
  }

  /// Removes the folder `name`.
  func remove(_ name: String) throws {
    try FileManager.default.removeItem(at: root.appendingPathComponent(name))
  }
}

/// A counter feature: `increment` adds one.
let counterFeature = """
  local lunar = require "lunar"
  return lunar.feature {
    name = "Counter",
    initial = { count = 0 },
    reduce = function(state, action)
      if action.type == "increment" then state.count = state.count + 1 end
    end,
    view = function(state) return "count: " .. state.count end,
  }
  """

/// A manifest for `name`, with `fields` (Lua text) after name, version and api.
func manifest(_ name: String, version: String = "1.0.0", api: Int = 1, _ fields: String = "") -> String {
  """
  local lunar = require "lunar"
  return lunar.plugin {
    name = "\(name)",
    version = "\(version)",
    api = \(api),
  \(fields)
  }
  """
}
