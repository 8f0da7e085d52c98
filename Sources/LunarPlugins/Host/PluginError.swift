import Foundation
import LuaFeatures

/// Why a plugin could not be loaded or reloaded: its manifest, the Lua API it asks for, a
/// capability the host does not offer, its name, or its feature.
///
/// ```
/// plugin dogs: plugin.lua:3: api = 2 is a Lua API this host does not offer (it offers api = 1)
/// ```
///
/// A plugin that fails to load is not loaded; one that fails to reload keeps serving its running
/// version.
public struct PluginError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: String, Sendable, Hashable {
    /// The folder holds no plugin: neither a `plugin.lua` nor a `feature.lua`/`main.lua`.
    case notFound
    /// `plugin.lua` does not load, or a field of its `lunar.plugin { … }` is wrong.
    case manifest
    /// The plugin asks for a version of the Lua API the host does not offer.
    case api
    /// The plugin asks for a capability the host does not offer at all.
    case unavailable
    /// Another loaded plugin has the same name; or a reload would change the name.
    case name
    /// The plugin's feature does not load (``featureError`` says why).
    case feature
    /// The plugin is not loaded (any more).
    case notLoaded
  }

  /// What went wrong.
  public var kind: Kind
  /// The plugin's name, or its folder's name when the manifest could not tell.
  public var plugin: String
  /// The plugin's folder.
  public var folder: URL
  /// What was wrong, without the location.
  public var message: String
  /// The file at fault, relative to the folder (`plugin.lua`), when there is one.
  public var file: String?
  /// The line at fault in ``file``.
  public var line: Int?
  /// The feature's own load error, for ``Kind/feature``.
  public var featureError: LuaFeatureError?

  /// An error from its parts.
  public init(
    _ kind: Kind, plugin: String, folder: URL, message: String, file: String? = nil, line: Int? = nil,
    featureError: LuaFeatureError? = nil
  ) {
    self.kind = kind
    self.plugin = plugin
    self.folder = folder
    self.message = message
    self.file = file
    self.line = line
    self.featureError = featureError
  }

  /// `file:line`, when known.
  public var location: String? {
    guard let file else { return nil }
    return line.map { "\(file):\($0)" } ?? file
  }

  /// `plugin dogs: plugin.lua:3: api = 2 is …`
  public var description: String {
    "plugin \(plugin): " + (location.map { "\($0): " } ?? "") + message
  }
}
