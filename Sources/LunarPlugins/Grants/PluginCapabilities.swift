import LuaBridge

/// A set of capabilities, by name: what a plugin asks for in its manifest, and what a host grants
/// it.
///
/// ```swift
/// let asked = PluginCapabilities(["http", "storage"], httpHosts: ["dog.ceo"])
/// asked.contains("storage")            // true
/// asked.allows(httpHost: "images.dog.ceo")   // true: a subdomain of dog.ceo
/// asked.removing(["http"])             // storage only
/// ```
///
/// A name is a capability of Lunar (`http`, `files`, `storage`) or a client the host registers in
/// Swift (`numberFact`): the first part of the dotted names under `deps`. The built-in `uuid`,
/// `now` and `clock` are every plugin's and are never named here.
public struct PluginCapabilities: Sendable, Hashable, CustomStringConvertible {
  /// The capabilities, by name.
  public private(set) var names: Set<String>
  /// The hosts `http` may reach, each with its subdomains; `nil` for any host.
  public private(set) var httpHosts: [String]?

  /// Capabilities by name; `httpHosts` restricts `http` (`nil`: any host).
  public init(_ names: Set<String> = [], httpHosts: [String]? = nil) {
    self.names = names
    self.httpHosts = httpHosts.map { Array(Set($0.map { $0.lowercased() })).sorted() }
  }

  /// No capability at all.
  public static let none = PluginCapabilities()

  /// Whether `name` is one of them.
  public func contains(_ name: String) -> Bool {
    names.contains(name)
  }

  /// Whether `http` may reach `host`: `http` is here, and `host` is one of ``httpHosts`` or a
  /// subdomain of one (`images.dog.ceo` for `dog.ceo`), or any host is allowed.
  public func allows(httpHost host: String) -> Bool {
    guard names.contains("http") else { return false }
    guard let httpHosts else { return true }
    let host = host.lowercased()
    return httpHosts.contains { host == $0 || host.hasSuffix("." + $0) }
  }

  /// These capabilities without `removed`.
  public func removing(_ removed: some Sequence<String>) -> PluginCapabilities {
    var copy = self
    copy.names.subtract(removed)
    if !copy.names.contains("http") { copy.httpHosts = nil }
    return copy
  }

  /// The capabilities both sets hold; `http` reaches the hosts both allow.
  public func intersection(_ other: PluginCapabilities) -> PluginCapabilities {
    let names = self.names.intersection(other.names)
    guard names.contains("http") else { return PluginCapabilities(names) }
    switch (httpHosts, other.httpHosts) {
    case (nil, nil): return PluginCapabilities(names)
    case let (hosts?, nil), let (nil, hosts?): return PluginCapabilities(names, httpHosts: hosts)
    case let (mine?, theirs?):
      return PluginCapabilities(names, httpHosts: mine.filter { other.allows(httpHost: $0) }
        + theirs.filter { self.allows(httpHost: $0) })
    }
  }

  /// `http (dog.ceo), storage`, or `nothing`.
  public var description: String {
    guard !names.isEmpty else { return "nothing" }
    return names.sorted().map { name in
      guard name == "http", let httpHosts else { return name }
      return "http (\(httpHosts.isEmpty ? "no host" : httpHosts.joined(separator: ", ")))"
    }.joined(separator: ", ")
  }

  /// The capabilities as a manifest writes them: `{ http = { hosts = { "dog.ceo" } }, storage = true }`.
  public var luaValue: LuaValue {
    var table: [LuaString: LuaValue] = [:]
    for name in names {
      if name == "http", let httpHosts {
        table[LuaString(name)] = ["hosts": .array(httpHosts.map { .text($0) })]
      } else {
        table[LuaString(name)] = true
      }
    }
    return .table(table)
  }
}
