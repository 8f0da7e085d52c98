import LuaBridge
import Testing

@testable import LunarDevtools

/// A server for a counter's hub, and the path of its page (`/TOKEN/`).
@MainActor
func startServer(limits: DevtoolsServer.Limits = .init(), report: @escaping @Sendable (String) -> Void = { _ in })
  async throws -> (server: DevtoolsServer, hub: DevtoolsHub, host: CounterHost, page: String)
{
  let host = CounterHost()
  let hub = DevtoolsHub(feature: "counter.lua")
  hub.host = host
  let server = try await DevtoolsServer.start(hub: hub, port: 0, limits: limits, report: report)
  return (server, hub, host, "/\(server.token)/")
}

// NB: minutes, not seconds: under a sanitizer, with the whole suite running on two cores, one test
//     waited four minutes for its server.
@Suite(.timeLimit(.minutes(10)))
struct DevtoolsServerTests {
  @Test func theAddressHoldsATokenOf256RandomBits() async throws {
    let (server, _, _, _) = try await startServer()
    defer { Task { await server.stop() } }
    let token = server.token.description
    #expect(token.count == 64)
    #expect(token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    #expect(server.url == "http://127.0.0.1:\(server.port)/\(token)/")
    #expect(DevtoolsToken().description != token)
  }

  @Test func aTokenMatchesItselfOnly() {
    let token = DevtoolsToken()
    let text = token.description
    #expect(token.matches(text))
    #expect(!token.matches(text.dropLast()))
    #expect(!token.matches(text + "0"))
    #expect(!token.matches(""))
    let last = text.last == "0" ? "1" : "0"
    #expect(!token.matches(text.dropLast() + last))
    #expect(!token.matches(text.uppercased()) || text.uppercased() == text)
  }

  @Test func thePageIsServedAtItsAddress() async throws {
    let (server, _, _, page) = try await startServer()
    defer { Task { await server.stop() } }
    let response = try await TestClient.get(page, port: server.port, headers: ["Host: 127.0.0.1:\(server.port)"])
    #expect(response.status == 200)
    #expect(response.head.contains("Content-Type: text/html; charset=utf-8"))
    #expect(response.body.contains("<script src=\"devtools.js\"></script>"))
    let script = try await TestClient.get(page + "devtools.js", port: server.port, headers: ["Host: localhost:\(server.port)"])
    #expect(script.status == 200)
  }

  @Test func thePageWithoutItsTokenIsRefused() async throws {
    let (server, _, _, _) = try await startServer()
    defer { Task { await server.stop() } }
    let response = try await TestClient.get("/", port: server.port, headers: ["Host: 127.0.0.1:\(server.port)"])
    #expect(response.status == 403)
    #expect(response.body == "\(DevtoolsAccess.Refusal.token)\n")
  }

  @Test func aLiveConnectionFromThePagesOriginIsAccepted() async throws {
    let (server, _, _, page) = try await startServer()
    defer { Task { await server.stop() } }
    let socket = try await TestWebSocket.open(page + "session", port: server.port, origin: "http://127.0.0.1:\(server.port)").get()
    defer { socket.close() }
    let hello = try await socket.next { $0[LuaString("type")] == "hello" }
    #expect(hello?[LuaString("feature")] == "counter.lua")
  }

  @Test func aLiveConnectionFromAnotherOriginIsRefused() async throws {
    let (server, hub, _, page) = try await startServer()
    defer { Task { await server.stop() } }
    let result = try await TestWebSocket.open(page + "session", port: server.port, origin: "https://evil.example")
    guard case let .failure(response) = result else { Issue.record("the handshake was accepted"); return }
    #expect(response.status == 403)
    #expect(response.body == "\(DevtoolsAccess.Refusal.origin("https://evil.example"))\n")
    #expect(await MainActor.run { hub.isObserved } == false)
  }

  @Test func aRequestForAnotherHostIsRefused() async throws {
    let (server, _, _, page) = try await startServer()
    defer { Task { await server.stop() } }
    let response = try await TestClient.get(page, port: server.port, headers: ["Host: rebound.example:\(server.port)"])
    #expect(response.status == 403)
    #expect(response.body == "\(DevtoolsAccess.Refusal.host("rebound.example:\(server.port)"))\n")
  }

  @Test func anEntryIdThatWouldOverflowIsAnsweredAndTheSessionGoesOn() async throws {
    let (server, _, host, page) = try await startServer()
    defer { Task { await server.stop() } }
    let socket = try await TestWebSocket.open(page + "session", port: server.port).get()
    defer { socket.close() }
    _ = try await socket.next { $0[LuaString("type")] == "entry" }
    for type in ["select", "resume"] {
      try await socket.send(#"{"type":"\#(type)","id":-9223372036854775808}"#)
      let notice = try await socket.next { $0[LuaString("type")] == "notice" }
      #expect(notice?[LuaString("message")] == "entry #-9223372036854775808 is no longer kept")
      #expect(notice?[LuaString("error")] == true)
    }
    try await socket.send(#"{"type":"select","id":1}"#)
    let detail = try await socket.next { $0[LuaString("type")] == "detail" }
    #expect(detail?[LuaString("state")] == ["count": 0])
    #expect(await MainActor.run { host.state } == ["count": 0])
  }

  @Test func connectionsPastTheBoundAreRefusedUntilOneCloses() async throws {
    let (server, _, _, page) = try await startServer(limits: .init(connections: 3))
    defer { Task { await server.stop() } }
    var open: [TestWebSocket] = []
    for _ in 0..<3 {
      let socket = try await TestWebSocket.open(page + "session", port: server.port).get()
      _ = try await socket.next { $0[LuaString("type")] == "hello" }
      open.append(socket)
    }
    let refused = try await TestWebSocket.open(page + "session", port: server.port)
    guard case let .failure(response) = refused else { Issue.record("a fourth connection was accepted"); return }
    #expect(response.status == 503)
    #expect(response.body == "the devtools have 3 connections open, as many as they take: close a page and try again\n")
    for socket in open { socket.close() }
    // NB: the server notices a closed connection when it next reads from it: soon, not at once.
    var accepted: TestWebSocket?
    let deadline = ContinuousClock.now + .seconds(20)
    while accepted == nil, ContinuousClock.now < deadline {
      if case let .success(socket) = try await TestWebSocket.open(page + "session", port: server.port) {
        accepted = socket
      } else {
        try await Task.sleep(for: .milliseconds(10))
      }
    }
    let socket = try #require(accepted)
    defer { socket.close() }
    #expect(try await socket.next { $0[LuaString("type")] == "hello" } != nil)
  }

  @Test func aMessageLongerThanTheBoundClosesTheConnectionSayingWhy() async throws {
    let (server, hub, host, page) = try await startServer(limits: .init(messageBytes: 1024))
    defer { Task { await server.stop() } }
    let socket = try await TestWebSocket.open(page + "session", port: server.port).get()
    defer { socket.close() }
    let limits = try await socket.next { $0[LuaString("type")] == "limits" }
    #expect(limits?[LuaString("messageBytes")] == 1024)
    let text = #"{"type":"import","text":""# + String(repeating: "x", count: 2000) + #""}"#
    try await socket.send(text)
    var received = try await socket.receive()
    while case .text = received { received = try await socket.receive() }
    #expect(received == .close(code: 1009, reason: "message too big: at most 1024 bytes"))
    let entries = await MainActor.run { hub.entries.map(\.source) }
    #expect(entries == [.connected])
    #expect(await MainActor.run { host.state } == ["count": 0])
  }

  @Test func aMessageOverSeveralFramesIsBoundedToo() async throws {
    let (server, _, _, page) = try await startServer(limits: .init(messageBytes: 1024))
    defer { Task { await server.stop() } }
    let socket = try await TestWebSocket.open(page + "session", port: server.port).get()
    defer { socket.close() }
    try await socket.sendFrame(opcode: 0x1, payload: Array(repeating: 0x20, count: 1000), fin: false)
    try await socket.sendFrame(opcode: 0x0, payload: Array(repeating: 0x20, count: 1000), fin: true)
    var received = try await socket.receive()
    while case .text = received { received = try await socket.receive() }
    #expect(received == .close(code: 1009, reason: "message too big: at most 1024 bytes"))
  }
}
