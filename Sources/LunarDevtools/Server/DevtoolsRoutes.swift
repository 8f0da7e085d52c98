import FlyingFox
import Foundation

/// Answers every request of the devtools server: checks it (``DevtoolsAccess``), takes its place
/// among the connections (``DevtoolsConnectionGate``), then serves the page, its files, or its live
/// connection at `/TOKEN/session`.
struct DevtoolsRoutes: HTTPHandler {
  let access: DevtoolsAccess
  let gate: DevtoolsConnectionGate
  let messageLimit: Int
  let hub: @MainActor @Sendable (_ session: String?) -> DevtoolsHub?
  /// The page's files by path after the token (`/`, `/devtools.js`…).
  let files: [String: Data]

  init(
    access: DevtoolsAccess, gate: DevtoolsConnectionGate, messageLimit: Int,
    hub: @escaping @MainActor @Sendable (_ session: String?) -> DevtoolsHub?
  ) {
    self.access = access
    self.gate = gate
    self.messageLimit = messageLimit
    self.hub = hub
    var files: [String: Data] = [:]
    for (name, text) in EmbeddedPage.files {
      files[name == "index.html" ? "/" : "/\(name)"] = Data(text.utf8)
    }
    self.files = files
  }

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    let route: Substring
    switch access.check(request) {
    case let .failure(refusal): return Self.refusal(.forbidden, "\(refusal)")
    case let .success(found): route = found
    }
    guard let pass = gate.enter() else {
      return Self.refusal(
        .serviceUnavailable, "the devtools have \(gate.limit) connections open, as many as they take: close a page and try again")
    }
    if route == "/session", request.method == .GET { return try await session(request, pass: pass) }
    // NB: anything else is answered at once: its place frees with the answer.
    defer { pass.leave() }
    guard request.method == .GET else { return Self.refusal(.methodNotAllowed, "the devtools answer GET requests only") }
    if route.isEmpty {
      // NB: `/TOKEN` → `/TOKEN/`, so that the page's relative addresses keep the token.
      let query = request.target.query(percentEncoded: true)
      var response = Self.response(.permanentRedirect, type: "text/plain; charset=utf-8", body: Data())
      response.headers[.location] = "/\(access.token)/" + (query.isEmpty ? "" : "?\(query)")
      return response
    }
    guard let body = files[String(route)] else {
      return Self.refusal(.notFound, "the devtools have no \(route.prefix(100))")
    }
    return Self.response(.ok, type: Self.contentType(of: route), body: body)
  }

  /// The page's live connection to the session its query names (`?session=counter`).
  private func session(_ request: HTTPRequest, pass: DevtoolsConnectionGate.Pass) async throws -> HTTPResponse {
    let name = request.query.first { $0.name == "session" }?.value
    let hub = self.hub
    guard let found = await MainActor.run(body: { hub(name) }) else {
      return Self.refusal(.notFound, "no session \(name?.prefix(100) ?? "")")
    }
    let socket = DevtoolsFrameLimit(
      limit: messageLimit, handler: MessageFrameWSHandler(handler: DevtoolsSocket(hub: found, pass: pass, messageLimit: messageLimit)))
    return try await WebSocketHTTPHandler(handler: socket).handleRequest(request)
  }

  static func response(_ status: HTTPStatusCode, type: String, body: Data) -> HTTPResponse {
    HTTPResponse(
      statusCode: status,
      headers: [
        .contentType: type, HTTPHeader("Cache-Control"): "no-store",
        // NB: the address holds the token: never sent on as a referrer, never framed by another page.
        HTTPHeader("Referrer-Policy"): "no-referrer", HTTPHeader("Content-Security-Policy"): "frame-ancestors 'none'",
        HTTPHeader("X-Content-Type-Options"): "nosniff",
        // NB: one request per connection: a connection does not stay open (and counted) after its answer.
        .connection: "close",
      ],
      body: body)
  }

  static func refusal(_ status: HTTPStatusCode, _ reason: String) -> HTTPResponse {
    response(status, type: "text/plain; charset=utf-8", body: Data((reason + "\n").utf8))
  }

  static func contentType(of path: Substring) -> String {
    switch path.split(separator: ".").last {
    case "html", "/": "text/html; charset=utf-8"
    case "js": "text/javascript; charset=utf-8"
    case "css": "text/css; charset=utf-8"
    case "svg": "image/svg+xml"
    default: "text/plain; charset=utf-8"
    }
  }
}
