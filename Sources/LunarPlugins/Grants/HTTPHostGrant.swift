import LuaFeatures

/// One entry of `capabilities.http.hosts`: a host, and optionally a port, that `http` may reach.
///
/// ```swift
/// let grant = try HTTPHostGrant(parsing: "dog.ceo")
/// grant.allows(try HTTPURL(parsing: "https://images.dog.ceo/a.jpg"))   // true: a subdomain, port 443
/// grant.allows(try HTTPURL(parsing: "https://dog.ceo:8443/"))         // false: not a default port
/// try HTTPHostGrant(parsing: "127.0.0.1:8080").allows(try HTTPURL(parsing: "http://127.0.0.1:8080/"))   // true
/// ```
///
/// - A host name grants itself and its subdomains (`dog.ceo` grants `images.dog.ceo`, never
///   `notdog.ceo`); an IP address (`127.0.0.1`, `[::1]`) grants that address only.
/// - Without a port, a grant allows the default ports (80 for `http`, 443 for `https`); with one
///   (`localhost:8080`), that port only, for both schemes.
/// - Hosts are written as in a URL and normalised as ``HTTPURL`` normalises them; any other form
///   (`0x7f.1`, `2130706433`, a scheme, a path) is refused when the manifest is read.
public struct HTTPHostGrant: Sendable, Hashable, CustomStringConvertible {
  /// The host granted.
  public let host: HTTPURL.Host
  /// The port granted; `nil` for the default ports.
  public let port: Int?

  /// Reads a grant (`dog.ceo`, `127.0.0.1`, `[::1]`, `localhost:8080`), or says why it is not one.
  public init(parsing text: String) throws(HTTPURL.Refusal) {
    guard !text.contains(where: { "/?#@".contains($0) }) else { throw .notAuthority }
    // NB: a grant is the authority of a URL: read it as one, so grants and URLs share one parser.
    let url = try HTTPURL(parsing: "http://" + text)
    host = url.host
    port = url.hasExplicitPort ? url.port : nil
  }

  /// Whether a request to `url` is granted.
  public func allows(_ url: HTTPURL) -> Bool {
    guard url.host.isWithin(host) else { return false }
    return port.map { $0 == url.port } ?? (url.port == HTTPURL.defaultPort(of: url.scheme))
  }

  /// Whether every request `other` grants, this grants too.
  public func covers(_ other: HTTPHostGrant) -> Bool {
    other.host.isWithin(host) && (port == other.port)
  }

  /// The grant as a manifest writes it: `dog.ceo`, `[::1]:8080`.
  public var description: String {
    port.map { "\(host):\($0)" } ?? host.description
  }
}
