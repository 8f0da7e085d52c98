import FlyingSocks
import Foundation
import LuaBridge

/// A bare HTTP and WebSocket client over a socket, as a hostile page or process would speak to the
/// devtools server: requests are written as given, nothing is added.
struct TestResponse: Error, Sendable {
  var status: Int
  var head: String
  var body: String
}

enum TestClient {
  // NB: FlyingSocks gives up connecting after 5 s by default; with the whole suite running on two
  //     cores, its client task can wait longer than that for a thread, so the tests allow a minute.
  static func connect(port: UInt16) async throws -> AsyncSocket {
    try await AsyncSocket.connected(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port), timeout: 60)
  }

  /// Writes `request` (its lines joined by CRLF, ended by an empty line) and reads the answer
  /// until the server closes the connection.
  static func send(_ request: String, port: UInt16) async throws -> TestResponse {
    let socket = try await connect(port: port)
    defer { try? socket.close() }
    try await socket.write(Data(request.utf8))
    return try await readResponse(socket)
  }

  /// A response's head, then as many bytes of body as its `Content-Length` says: the server may
  /// keep the connection open after it.
  static func readResponse(_ socket: AsyncSocket) async throws -> TestResponse {
    var head: [UInt8] = []
    while !head.ends(with: Array("\r\n\r\n".utf8)) {
      do {
        head.append(try await socket.read())
      } catch SocketError.disconnected {
        break
      }
    }
    var response = parse(String(decoding: head, as: UTF8.self))
    let length = response.head.split(separator: "\r\n")
      .first { $0.lowercased().hasPrefix("content-length:") }
      .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    response.body = String(decoding: try await socket.read(bytes: length), as: UTF8.self)
    return response
  }

  /// A GET of `path` with the headers given (`Host` included or not, as the caller says).
  static func get(_ path: String, port: UInt16, headers: [String] = []) async throws -> TestResponse {
    try await send((["GET \(path) HTTP/1.1"] + headers + ["Connection: close", "", ""]).joined(separator: "\r\n"), port: port)
  }

  static func parse(_ text: String) -> TestResponse {
    let parts = text.components(separatedBy: "\r\n\r\n")
    let head = parts.first ?? ""
    let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return TestResponse(status: status, head: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
  }
}

/// A page's live connection, spoken frame by frame.
final class TestWebSocket: Sendable {
  let socket: AsyncSocket

  private init(socket: AsyncSocket) {
    self.socket = socket
  }

  /// Opens `path` (`/TOKEN/session`) with `origin` (none: a client that is not a browser); the
  /// handshake's answer when it is not `101 Switching Protocols`.
  static func open(
    _ path: String, port: UInt16, origin: String? = nil, host: String? = nil
  ) async throws -> Result<TestWebSocket, TestResponse> {
    let socket = try await TestClient.connect(port: port)
    var lines = [
      "GET \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Upgrade: websocket", "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
    ]
    if let origin { lines.append("Origin: \(origin)") }
    try await socket.write(Data((lines + ["", ""]).joined(separator: "\r\n").utf8))
    let response = try await TestClient.readResponse(socket)
    guard response.status == 101 else {
      try? socket.close()
      return .failure(response)
    }
    return .success(TestWebSocket(socket: socket))
  }

  func send(_ text: String) async throws {
    try await sendFrame(opcode: 0x1, payload: Array(text.utf8))
  }

  func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true) async throws {
    var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try await socket.write(Data(frame))
  }

  /// What the server sent next: a text message, or its close frame's code and reason; `nil` when
  /// the connection ended without one.
  enum Received: Equatable {
    case text(String)
    case close(code: Int, reason: String)
  }

  func receive() async throws -> Received? {
    var message: [UInt8] = []
    while true {
      let first: UInt8
      do {
        first = try await socket.read()
      } catch SocketError.disconnected {
        return nil
      }
      var length = Int(try await socket.read() & 0x7F)
      if length == 126 {
        length = try await socket.read(bytes: 2).reduce(0) { $0 << 8 | Int($1) }
      } else if length == 127 {
        length = try await socket.read(bytes: 8).reduce(0) { $0 << 8 | Int($1) }
      }
      let payload = try await socket.read(bytes: length)
      switch first & 0x0F {
      case 0x8:
        let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 0
        return .close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
      case 0x9, 0xA:
        continue
      default:
        message += payload
        if first & 0x80 != 0 { return .text(String(decoding: message, as: UTF8.self)) }
      }
    }
  }

  /// The next message of the page (from a batch or alone) that `matches`.
  func next(where matches: (LuaValue) -> Bool) async throws -> LuaValue? {
    while let received = try await receive() {
      guard case let .text(text) = received else { return nil }
      let message = try LuaJSONDecoder().decode(text)
      for each in message.arrayValue ?? [message] where matches(each) { return each }
    }
    return nil
  }

  func close() {
    try? socket.close()
  }
}

extension Array where Element: Equatable {
  func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
