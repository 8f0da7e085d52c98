/// A plugin called a capability it was not granted. Scripts see it after `deps.http.get failed: `.
///
/// ```
/// plugin dogs was not granted http to example.org: its plugin.lua asks for dog.ceo; add "example.org" to capabilities.http.hosts
/// ```
public struct PluginGrantError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The plugin.
  public var plugin: String
  /// The capability (`http`, `storage`, a client's name).
  public var capability: String
  /// The host an `http` call tried to reach, when that was what was not granted.
  public var host: String?
  /// How to grant it.
  public var remedy: String

  /// An error from its parts.
  public init(plugin: String, capability: String, host: String? = nil, remedy: String) {
    self.plugin = plugin
    self.capability = capability
    self.host = host
    self.remedy = remedy
  }

  public var description: String {
    "plugin \(plugin) was not granted \(capability)\(host.map { " to \($0)" } ?? ""): \(remedy)"
  }
}
