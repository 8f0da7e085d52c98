import FlyingFox

/// Who may use the devtools server: a request for `127.0.0.1:PORT` itself (not a name that a web
/// page's DNS points there), holding the token, and, for a request a web page makes, from the
/// page's own origin.
///
/// Every request is checked before it is routed; a refusal is a `403 Forbidden` saying which check
/// failed, and the connection is closed.
struct DevtoolsAccess: Sendable {
  let port: UInt16
  let token: DevtoolsToken

  /// Why `request` is refused, or `nil` when it may go on to the path after the token (returned
  /// as `route`: `""` for the page, `devtools.js`, `session`…).
  func check(_ request: HTTPRequest) -> Result<Substring, Refusal> {
    // NB: against DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1 sends
    //     `Host: evil.example:PORT`; only the loopback names, with our port, are ours.
    let hosts = request.headers.values(for: .host)
    guard hosts.count == 1, allowedHosts.contains(hosts[0].lowercased()) else {
      return .failure(.host(hosts.first))
    }
    // NB: the token is the first segment of the path: `/TOKEN/devtools.js`, so that the page's
    //     relative addresses (its files, its WebSocket) carry it without knowing it.
    // NB: the path as sent: the library's own drops a trailing `/`, which `/TOKEN/` needs.
    let path = request.target.path(percentEncoded: true).drop { $0 == "/" }
    let segment = path.prefix { $0 != "/" }
    guard token.matches(segment) else { return .failure(.token) }
    // NB: a browser always sends Origin with a WebSocket handshake, and with any request a script
    //     makes across origins; a client that sends none is not a web page (it holds the token).
    let origins = request.headers.values(for: HTTPHeader("Origin"))
    if !origins.isEmpty {
      guard origins.count == 1, allowedOrigins.contains(origins[0].lowercased()) else {
        return .failure(.origin(origins.first))
      }
    }
    return .success(Substring(path.dropFirst(segment.count)))
  }

  /// `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`: the names of this machine's loopback.
  var allowedHosts: Set<String> {
    ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
  }

  /// The page's own origins: the addresses it is served at.
  var allowedOrigins: Set<String> {
    Set(allowedHosts.map { "http://\($0)" })
  }

  /// Why a request was refused; its text is the body of the `403`.
  enum Refusal: Error, Equatable, CustomStringConvertible {
    case host(String?)
    case token
    case origin(String?)

    var description: String {
      switch self {
      case let .host(host):
        "the devtools answer only requests for 127.0.0.1, localhost or [::1] on their port, not for \(host.map { "'\($0.prefix(100))'" } ?? "no Host")"
      case .token:
        "the devtools page's address holds a token: open the address lunar printed (devtools: http://127.0.0.1:PORT/TOKEN/)"
      case let .origin(origin):
        "the devtools accept connections from their own page only, not from '\(origin.map { String($0.prefix(100)) } ?? "")'"
      }
    }
  }
}
