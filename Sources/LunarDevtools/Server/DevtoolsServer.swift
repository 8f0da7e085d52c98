import FlyingFox
import Foundation

/// Serves the devtools page of a ``DevtoolsHub`` on 127.0.0.1: the page and its assets (embedded in
/// the binary, so it works offline) at `/`, and its live connection at `/session` (a WebSocket).
///
/// ```swift
/// let server = try await DevtoolsServer.start(hub: hub, port: 0)   // 0: any free port
/// print("devtools: \(server.url)")
/// ```
///
/// > Important: It listens on the loopback interface only: the page can dispatch actions and change
/// > the state, so it must not be reachable from other machines.
public final class DevtoolsServer: Sendable {
  /// The port it listens on (the one picked when asked for 0).
  public let port: UInt16
  private let server: HTTPServer
  private let task: Task<Void, any Error>

  /// The page's address: `http://127.0.0.1:PORT/`.
  public var url: String { "http://127.0.0.1:\(port)/" }

  private init(port: UInt16, server: HTTPServer, task: Task<Void, any Error>) {
    self.port = port
    self.server = server
    self.task = task
  }

  /// Starts serving `hub`'s page on `127.0.0.1:port`, and returns once it listens.
  ///
  /// - Throws: ``DevtoolsServerError`` when the port cannot be listened on (already in use).
  public static func start(hub: DevtoolsHub, port: UInt16) async throws -> DevtoolsServer {
    try await start(port: port) { _ in hub }
  }

  /// Starts serving the pages of several sessions (the plugins of a host) on `127.0.0.1:port`: the
  /// page at `/?session=NAME` shows the session `hub(NAME)` finds, and `/` the one `hub(nil)` finds.
  ///
  /// - Throws: ``DevtoolsServerError`` when the port cannot be listened on (already in use).
  public static func start(
    port: UInt16, hub: @escaping @MainActor @Sendable (_ session: String?) -> DevtoolsHub?
  ) async throws -> DevtoolsServer {
    let address: sockaddr_in
    do {
      address = try .inet(ip4: "127.0.0.1", port: port)
    } catch {
      throw DevtoolsServerError(message: "cannot listen on 127.0.0.1:\(port): \(error)")
    }
    // NB: no logger: the server must not write to standard output, which carries the run's events.
    let server = HTTPServer(address: address, timeout: 60, logger: .disabled)
    for (name, text) in EmbeddedPage.files {
      let response = DevtoolsAssets.response(name: name, text: text)
      let path = name == "index.html" ? "/" : "/\(name)"
      await server.appendRoute(HTTPRoute("GET \(path)")) { _ in response() }
    }
    await server.appendRoute("GET /session") { request in
      let name = request.query.first { $0.name == "session" }?.value
      guard let found = await MainActor.run(body: { hub(name) }) else {
        return HTTPResponse(statusCode: .notFound, body: Data("no session \(name ?? "")\n".utf8))
      }
      let socket = WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: DevtoolsSocket(hub: found)))
      return try await socket.handleRequest(request)
    }
    let task = Task { try await server.run() }
    do {
      try await server.waitUntilListening(timeout: 5)
    } catch {
      task.cancel()
      let reason = (try? await task.value).map { _ in "\(error)" } ?? "\(error)"
      throw DevtoolsServerError(message: "cannot listen on 127.0.0.1:\(port): \(reason)")
    }
    guard case let .ip4(_, bound)? = await server.listeningAddress else {
      task.cancel()
      throw DevtoolsServerError(message: "cannot listen on 127.0.0.1:\(port)")
    }
    return DevtoolsServer(port: bound, server: server, task: task)
  }

  /// Stops listening and closes the pages' connections.
  public func stop() async {
    await server.stop(timeout: 0)
    task.cancel()
  }
}

/// Why the devtools could not be served.
public struct DevtoolsServerError: Error, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}

/// The page's files, each with its content type; served as they were embedded.
enum DevtoolsAssets {
  static func response(name: String, text: String) -> @Sendable () -> HTTPResponse {
    let type: String
    switch (name as NSString).pathExtension {
    case "html": type = "text/html; charset=utf-8"
    case "js": type = "text/javascript; charset=utf-8"
    case "css": type = "text/css; charset=utf-8"
    case "svg": type = "image/svg+xml"
    default: type = "text/plain; charset=utf-8"
    }
    let body = Data(text.utf8)
    return {
      HTTPResponse(
        statusCode: .ok,
        headers: [.contentType: type, HTTPHeader("Cache-Control"): "no-store"],
        body: body)
    }
  }
}

/// A page's live connection: messages from the hub out, requests from the page in.
struct DevtoolsSocket: WSMessageHandler {
  let hub: DevtoolsHub

  func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
    let hub = self.hub
    let (id, messages) = await MainActor.run { hub.connect() }
    Task {
      for await message in client {
        guard case let .text(text) = message else { continue }
        await MainActor.run { hub.receive(text, from: id) }
      }
      await MainActor.run { hub.disconnect(id) }
    }
    return AsyncStream { continuation in
      let forward = Task {
        for await text in messages { continuation.yield(.text(text)) }
        continuation.finish()
      }
      continuation.onTermination = { _ in forward.cancel() }
    }
  }
}
