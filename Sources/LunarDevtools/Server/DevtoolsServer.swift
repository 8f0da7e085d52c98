import FlyingFox
import FlyingSocks
import Foundation

/// Serves the devtools page of a ``DevtoolsHub`` on 127.0.0.1: the page and its files (embedded in
/// the binary, so it works offline) under `/TOKEN/`, and its live connection at `/TOKEN/session`
/// (a WebSocket).
///
/// ```swift
/// let server = try await DevtoolsServer.start(hub: hub, port: 0)   // 0: any free port
/// print("devtools: \(server.url)")                                 // http://127.0.0.1:PORT/TOKEN/
/// ```
///
/// > Important: The page can dispatch actions, change the state and export the session, so only the
/// > user may open it. It listens on the loopback interface only; every request must name
/// > `127.0.0.1`, `localhost` or `[::1]` with the port as its `Host` (a web page whose name was
/// > made to point at 127.0.0.1 is refused) and hold the ``token`` (shown only in ``url``); a
/// > WebSocket handshake from a browser must come from the page's own origin. Connections are
/// > bounded, each message too (``Limits``).
public final class DevtoolsServer: Sendable {
  /// The port it listens on (the one picked when asked for 0).
  public let port: UInt16
  /// The secret every request must hold: the first segment of the path.
  public let token: DevtoolsToken
  private let listener: DevtoolsListener

  /// The page's address: `http://127.0.0.1:PORT/TOKEN/`.
  public var url: String { "http://127.0.0.1:\(port)/\(token)/" }

  /// How much the server takes from its clients.
  public struct Limits: Sendable {
    /// Connections open at once: pages' live connections and requests being answered. Past it, a
    /// request is answered `503 Service Unavailable`; a place frees when a connection closes.
    public var connections: Int
    /// Bytes in one message from a page (an imported recording is one): a longer one closes the
    /// connection with code 1009, *message too big*.
    public var messageBytes: Int

    public init(connections: Int = 32, messageBytes: Int = 32 << 20) {
      self.connections = connections
      self.messageBytes = messageBytes
    }
  }

  private init(port: UInt16, token: DevtoolsToken, listener: DevtoolsListener) {
    self.port = port
    self.token = token
    self.listener = listener
  }

  /// Starts serving `hub`'s page on `127.0.0.1:port`, and returns once it listens.
  ///
  /// - Parameter report: Where the server says it cannot accept connections (and then that it can
  ///   again); standard error unless given.
  /// - Throws: ``DevtoolsServerError`` when the port cannot be listened on (already in use).
  public static func start(
    hub: DevtoolsHub, port: UInt16, limits: Limits = Limits(),
    report: @escaping @Sendable (String) -> Void = DevtoolsServer.printToStandardError
  ) async throws -> DevtoolsServer {
    try await start(port: port, limits: limits, report: report) { _ in hub }
  }

  /// Starts serving the pages of several sessions (the plugins of a host) on `127.0.0.1:port`: the
  /// page at `/TOKEN/?session=NAME` shows the session `hub(NAME)` finds, and `/TOKEN/` the one
  /// `hub(nil)` finds.
  ///
  /// - Throws: ``DevtoolsServerError`` when the port cannot be listened on (already in use).
  public static func start(
    port: UInt16, limits: Limits = Limits(),
    report: @escaping @Sendable (String) -> Void = DevtoolsServer.printToStandardError,
    hub: @escaping @MainActor @Sendable (_ session: String?) -> DevtoolsHub?
  ) async throws -> DevtoolsServer {
    let token = DevtoolsToken()
    let gate = DevtoolsConnectionGate(limit: limits.connections)
    let listener = DevtoolsListener(report: report) { port in
      DevtoolsRoutes(
        access: DevtoolsAccess(port: port, token: token), gate: gate, messageLimit: limits.messageBytes, hub: hub)
    }
    let bound = try await listener.listen(port: port)
    return DevtoolsServer(port: bound, token: token, listener: listener)
  }

  /// Stops listening and closes the pages' connections.
  public func stop() async {
    await listener.stop()
  }

  /// Writes `text` and a newline on standard error.
  public static let printToStandardError: @Sendable (String) -> Void = { text in
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}

/// Why the devtools could not be served.
public struct DevtoolsServerError: Error, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}

extension DevtoolsServerError {
  /// A socket error as a person reads it: `accept failed: Too many open files`.
  static func describe(_ error: any Error) -> String {
    if case let .failed(type, _, message)? = error as? SocketError { return "\(type.lowercased()) failed: \(message)" }
    return "\(error)"
  }
}
