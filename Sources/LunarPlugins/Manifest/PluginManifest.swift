import Foundation
import LuaBridge
import LuaFeatures

/// What a plugin is and asks for: its name, version, the Lua API it was written for, its entry
/// feature and the capabilities it requests.
///
/// A plugin is a folder. Its `plugin.lua` returns the manifest:
///
/// ```lua
/// local lunar = require "lunar"
/// return lunar.plugin {
///   name = "dogs", version = "1.2.0", api = 1,   -- the Lua API version it was written for
///   feature = "feature",                         -- the entry module: feature.lua
///   capabilities = { http = { hosts = { "dog.ceo" } }, storage = true },
/// }
/// ```
///
/// A folder with only a `feature.lua` (or `main.lua`) is a plugin too: named after its folder,
/// version `0.0.0`, written for the current API, asking for no capability.
///
/// Read one with ``PluginManifest/read(folder:in:)``, which checks every field.
public struct PluginManifest: Sendable, Equatable {
  /// How hosts, events and the CLI's `:use` name the plugin: a letter, then letters, digits, `-`
  /// and `_`.
  public var name: String
  /// The plugin's version, like `1.2.0`.
  public var version: String
  /// The version of Lunar's Lua API the plugin was written for.
  public var api: Int
  /// The entry module, in the plugin's folder: `feature` is `feature.lua` (or `feature/init.lua`).
  public var feature: String
  /// The capabilities the plugin asks for.
  public var capabilities: PluginCapabilities
  /// The plugin's folder.
  public var folder: URL
  /// Whether the folder has a `plugin.lua`; without one, the plugin asks for nothing.
  public var hasManifestFile: Bool

  /// A manifest from its parts.
  public init(
    name: String, version: String, api: Int = PluginManifest.currentAPI, feature: String = "feature",
    capabilities: PluginCapabilities = .none, folder: URL, hasManifestFile: Bool = true
  ) {
    self.name = name
    self.version = version
    self.api = api
    self.feature = feature
    self.capabilities = capabilities
    self.folder = folder
    self.hasManifestFile = hasManifestFile
  }

  /// The version of the Lua API this build of Lunar implements: the `api` a plugin written for it
  /// gives.
  public static let currentAPI = 1
  /// The Lua API versions this build of Lunar runs plugins for.
  public static let supportedAPIs: ClosedRange<Int> = 1...1
  /// The manifest's file name in a plugin's folder.
  public static let fileName = "plugin.lua"
  /// The fields `lunar.plugin { … }` takes.
  static let fields = ["name", "version", "api", "feature", "capabilities"]

  /// The manifest's file, `<folder>/plugin.lua`.
  public var file: URL { folder.appendingPathComponent(Self.fileName) }

  /// The entry feature's script: `<folder>/<feature>.lua`, or `<folder>/<feature>/init.lua`.
  public var entry: URL {
    let path = feature.replacingOccurrences(of: ".", with: "/")
    let script = folder.appendingPathComponent(path + ".lua")
    let package = folder.appendingPathComponent(path).appendingPathComponent("init.lua")
    if !FileManager.default.fileExists(atPath: script.path), FileManager.default.fileExists(atPath: package.path) {
      return package
    }
    return script
  }

  /// Whether `name` can name a plugin: a letter, then letters, digits, `-` and `_`, at most 64.
  public static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64, first.isASCIILetter else {
      return false
    }
    return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
  }

  /// Whether the folder is a plugin: it has a `plugin.lua`, a `feature.lua` or a `main.lua`.
  public static func isPluginFolder(_ folder: URL) -> Bool {
    ([fileName] + FeatureLocation.entryNames).contains { name in
      FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
    }
  }

  /// The plugin folders directly inside `folder`, sorted by name.
  public static func pluginFolders(in folder: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().compactMap { name in
      guard !name.hasPrefix(".") else { return nil }
      let child = folder.appendingPathComponent(name, isDirectory: true).standardizedFileURL
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory), isDirectory.boolValue,
        isPluginFolder(child)
      else { return nil }
      return child
    }
  }
}

extension Unicode.Scalar {
  fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
