import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An action dispatched from the devtools page is printed by `lunar run` as the page's, not as an
/// effect's: the page's live connection is opened as the page opens it, and the action sent
/// through it as the page's dispatcher sends it.
@Suite struct DevtoolsDispatchLabelTests {
  @Test(.enabled(if: PTY.available)) func anActionDispatchedFromTheDevtoolsIsPrintedAsTheDevtools() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-devtools-label-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let errors = folder.appendingPathComponent("stderr")
    // NB: at a terminal, as a person runs it (lunar prints text, not JSON, only there); standard
    //     error goes to a file, where the test reads the page's address as the person would.
    let steps: [PTY.Step] = [
      .expect("timer: off"), .send("increment\r"), .expect("→ increment"),
      .expect("(from the devtools)", timeout: 60), .send(":quit\r"), .exit(20),
    ]
    async let run = PTY.run(["run", "examples/counter", "--devtools", "0"], state: folder, errors: errors, steps: steps)
    let address = try #require(await Self.address(in: errors), "lunar printed no devtools address")
    try await PageSocket.dispatch("increment", to: address)
    let result = try await run

    #expect(result.ok, "\(result)")
    let lines = Self.terminalLines(result.transcript).filter { $0.hasPrefix("→") || $0.hasPrefix("⇠") }
    #expect(lines == ["→ increment", "→ increment  (from the devtools)"], "\(result)")
  }

  /// The port and token of the page's address, once lunar wrote it in `errors` (`nil` after a minute).
  private static func address(in errors: URL) async -> (port: UInt16, token: String)? {
    for _ in 0..<6000 {
      let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      if let match = text.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/([0-9a-f]{64})\//), let port = UInt16(match.1) {
        return (port, String(match.2))
      }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return nil
  }

  /// The transcript's lines as the terminal shows them: a carriage return starts its line over,
  /// escape sequences (the prompt redrawing itself) left out.
  private static func terminalLines(_ transcript: String) -> [String] {
    transcript.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map { line in
      let plain = line.replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: "")
      return String(plain.split(separator: "\r").last ?? "").trimmingCharacters(in: .whitespaces)
    }
  }
}

/// The page's live connection, spoken over a bare socket: the WebSocket handshake at
/// `/TOKEN/session`, then one masked text frame, as a browser sends it.
private enum PageSocket {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Sends `{"type":"dispatch","action":…}`, as the page's dispatcher does, and gives lunar half a
  /// second to read it before closing.
  static func dispatch(_ action: String, to address: (port: UInt16, token: String)) async throws {
    try await Task.detached {
      let socket = try connect(port: address.port)
      defer { close(socket) }
      let handshake = [
        "GET /\(address.token)/session HTTP/1.1", "Host: 127.0.0.1:\(address.port)", "Upgrade: websocket",
        "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13", "", "",
      ].joined(separator: "\r\n")
      try write(Array(handshake.utf8), to: socket)
      let head = try readHead(socket)
      guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "the handshake was refused: \(head)") }
      let message = try JSONSerialization.data(withJSONObject: ["type": "dispatch", "action": action])
      try write(frame(Array(message)), to: socket)
      // NB: closing at once could end the connection before lunar read the frame.
      usleep(500_000)
    }.value
  }

  private static func connect(port: UInt16) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      close(socket)
      throw Failure(description: "connect: errno \(errno)")
    }
    return socket
  }

  private static func write(_ bytes: [UInt8], to socket: Int32) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
      sent += count
    }
  }

  /// The response's head, up to its empty line.
  private static func readHead(_ socket: Int32) throws -> String {
    var head: [UInt8] = []
    var byte: UInt8 = 0
    while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
      guard recv(socket, &byte, 1, 0) == 1 else { throw Failure(description: "the server closed: \(head)") }
      head.append(byte)
    }
    return String(decoding: head, as: UTF8.self)
  }

  /// A final text frame holding `payload`, masked as a client's must be.
  private static func frame(_ payload: [UInt8]) -> [UInt8] {
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    var frame: [UInt8] = [0x81]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    }
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    return frame
  }
}
