import LuaBridge
import LuaFeatures

/// A set of capabilities, by name: what a plugin asks for in its manifest, and what a host grants
/// it.
///
/// ```swift
/// let asked = PluginCapabilities(["http", "storage"], httpHosts: ["dog.ceo"])
/// asked.contains("storage")            // true
/// asked.allows(try HTTPURL(parsing: "https://images.dog.ceo/"))   // true: a subdomain of dog.ceo
/// asked.removing(["http"])             // storage only
/// ```
///
/// A name is a capability of Lunar (`http`, `files`, `storage`) or a client the host registers in
/// Swift (`numberFact`): the first part of the dotted names under `deps`. The built-in `uuid`,
/// `now` and `clock` are every plugin's and are never named here.
public struct PluginCapabilities: Sendable, Hashable, CustomStringConvertible {
  /// The capabilities, by name.
  public private(set) var names: Set<String>
  /// The hosts `http` may reach (see ``HTTPHostGrant``: a name with its subdomains, an IP address
  /// alone, an optional port); `nil` for any host.
  public private(set) var httpHosts: [String]?

  /// Capabilities by name; `httpHosts` restricts `http` (`nil`: any host).
  ///
  /// > Important: A host that ``HTTPHostGrant`` cannot read grants nothing (a manifest's hosts are
  /// > checked when it is read; an app's own are not).
  public init(_ names: Set<String> = [], httpHosts: [String]? = nil) {
    self.names = names
    self.httpHosts = httpHosts.map { hosts in
      Array(Set(hosts.map { host in (try? HTTPHostGrant(parsing: host))?.description ?? host.lowercased() })).sorted()
    }
  }

  /// ``httpHosts`` as grants, leaving out any that is not one.
  var httpGrants: [HTTPHostGrant]? {
    httpHosts.map { $0.compactMap { try? HTTPHostGrant(parsing: $0) } }
  }

  /// No capability at all.
  public static let none = PluginCapabilities()

  /// Whether `name` is one of them.
  public func contains(_ name: String) -> Bool {
    names.contains(name)
  }

  /// Whether `http` may reach `url`: `http` is here, and one of ``httpHosts`` allows it
  /// (``HTTPHostGrant/allows(_:)``), or any host is allowed.
  public func allows(_ url: HTTPURL) -> Bool {
    guard names.contains("http") else { return false }
    guard let httpGrants else { return true }
    return httpGrants.contains { $0.allows(url) }
  }

  /// Whether `http` may reach everything `grant` allows.
  func covers(_ grant: HTTPHostGrant) -> Bool {
    guard names.contains("http") else { return false }
    guard let httpGrants else { return true }
    return httpGrants.contains { $0.covers(grant) }
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
      let kept = mine.compactMap { try? HTTPHostGrant(parsing: $0) }.filter(other.covers)
        + theirs.compactMap { try? HTTPHostGrant(parsing: $0) }.filter(self.covers)
      return PluginCapabilities(names, httpHosts: kept.map(\.description))
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
