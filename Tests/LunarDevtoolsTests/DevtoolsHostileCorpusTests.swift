import Foundation
import LuaBridge
import Testing

@testable import LunarDevtools

/// What a web page, a rebinding DNS name or another process on the machine may send the devtools
/// server (`Hostile/*.http`), and what a page may send on its live connection (`Hostile/*.json`):
/// each is refused or answered with an error, and the page and its session go on as before.
@Suite(.timeLimit(.minutes(10)))
struct DevtoolsHostileCorpusTests {
  /// A request, written as sent (`{PORT}`, `{TOKEN}`, `{TOKEN_PREFIX}` filled in), and its answer.
  struct Request: CustomTestStringConvertible, Sendable {
    var file: String
    var status: Int
    var body: String
    var testDescription: String { file }
  }

  /// A message of a page, and the error it is answered with.
  struct Message: CustomTestStringConvertible, Sendable {
    var file: String
    var notice: String
    var testDescription: String { file }
  }

  static let token = "\(DevtoolsAccess.Refusal.token)\n"

  static let requests: [Request] = [
    Request(file: "no_token.http", status: 403, body: token),
    Request(file: "token_in_query.http", status: 403, body: token),
    Request(file: "wrong_token.http", status: 403, body: token),
    Request(file: "token_prefix.http", status: 403, body: token),
    Request(file: "token_extended.http", status: 403, body: token),
    Request(file: "websocket_without_token.http", status: 403, body: token),
    Request(file: "rebinding_host.http", status: 403, body: "\(DevtoolsAccess.Refusal.host("attacker.example:{PORT}"))\n"),
    Request(file: "host_other_port.http", status: 403, body: "\(DevtoolsAccess.Refusal.host("127.0.0.1:1"))\n"),
    Request(file: "host_without_port.http", status: 403, body: "\(DevtoolsAccess.Refusal.host("127.0.0.1"))\n"),
    Request(file: "two_hosts.http", status: 403, body: "\(DevtoolsAccess.Refusal.host("attacker.example"))\n"),
    Request(file: "no_host.http", status: 403, body: "\(DevtoolsAccess.Refusal.host(nil))\n"),
    Request(file: "websocket_foreign_origin.http", status: 403, body: "\(DevtoolsAccess.Refusal.origin("https://attacker.example"))\n"),
    Request(file: "websocket_null_origin.http", status: 403, body: "\(DevtoolsAccess.Refusal.origin("null"))\n"),
    Request(file: "websocket_origin_other_port.http", status: 403, body: "\(DevtoolsAccess.Refusal.origin("http://127.0.0.1:1"))\n"),
    Request(file: "websocket_two_origins.http", status: 403, body: "\(DevtoolsAccess.Refusal.origin("https://attacker.example"))\n"),
    Request(file: "post.http", status: 405, body: "the devtools answer GET requests only\n"),
    Request(file: "dot_segments.http", status: 404, body: "the devtools have no /../{TOKEN}/devtools.js\n"),
  ]

  static let requestNames = "(requests: dispatch, export, import, resume, select, skip, unskip)"

  static let messages: [Message] = [
    Message(file: "select_int_min.json", notice: "entry #-9223372036854775808 is no longer kept"),
    Message(file: "resume_int_min.json", notice: "entry #-9223372036854775808 is no longer kept"),
    Message(file: "select_int_max.json", notice: "entry #9223372036854775807 is no longer kept"),
    Message(file: "resume_negative.json", notice: "entry #-1 is no longer kept"),
    Message(file: "select_huge_number.json", notice: "not understood: select needs an integer id"),
    Message(file: "select_fraction.json", notice: "not understood: select needs an integer id"),
    Message(file: "select_text_id.json", notice: "not understood: select needs an integer id"),
    Message(file: "unknown_type.json", notice: "not understood: unknown request 'shutdown' \(requestNames)"),
    Message(file: "no_type.json", notice: "not understood: unknown request (no type) \(requestNames)"),
    Message(file: "array.json", notice: #"not understood: a request is a JSON object with a "type""#),
    Message(file: "bare_string.json", notice: #"not understood: a request is a JSON object with a "type""#),
    Message(file: "truncated.json", notice: "not understood: not JSON: type: the text ends where a value was expected (at byte 8 of the text)"),
    Message(
      file: "deep_nesting.json",
      notice: "not understood: not JSON: [1][1][1][1][1][1]…(91 more)…[1][1][1]: nested deeper than the limit of 100 levels (at byte 100 of the text)"),
    Message(file: "export_unknown_format.json", notice: "not understood: export format '../../etc/passwd' is not record or test"),
    Message(file: "import_not_json.json", notice: "cannot import: line 1 is not JSON: value: expected a JSON value, found 'n' (at byte 0 of the text)"),
    Message(file: "import_without_session.json", notice: "cannot import: this is not a recording: it has no session line"),
    Message(
      file: "import_deep_state.json",
      notice: "cannot import: line 1 is not JSON: state[1][1][1][1][1]…(119 more)…[1][1][1]: nested deeper than the limit of 128 levels (at byte 167 of the text)"),
    Message(file: "dispatch_number.json", notice: "not understood: dispatch needs a text action"),
    Message(file: "skip_int_min.json", notice: "cannot skip #-9223372036854775808: entry #-9223372036854775808 is no longer kept"),
    Message(file: "skip_connection.json", notice: "cannot skip #1: entry #1 is not an action the session reduced (connected)"),
    Message(file: "unskip_fraction.json", notice: "not understood: unskip needs an integer id"),
  ]

  static let folder: URL = Bundle.module.resourceURL!.appendingPathComponent("Hostile")
    .standardizedFileURL.resolvingSymlinksInPath()

  static func fill(_ text: String, _ server: DevtoolsServer) -> String {
    text.replacingOccurrences(of: "{PORT}", with: "\(server.port)")
      .replacingOccurrences(of: "{TOKEN_PREFIX}", with: String(server.token.description.dropLast()))
      .replacingOccurrences(of: "{TOKEN}", with: server.token.description)
  }

  @Test(arguments: requests)
  func hostileRequestIsRefusedAndThePageIsStillServed(_ c: Request) async throws {
    let (server, hub, _, page) = try await startServer()
    defer { Task { await server.stop() } }
    let text = try String(contentsOf: Self.folder.appendingPathComponent(c.file), encoding: .utf8)
    let response = try await TestClient.send(Self.fill(text, server).replacingOccurrences(of: "\n", with: "\r\n"), port: server.port)
    #expect(response.status == c.status, "\(response.head)")
    #expect(response.body == Self.fill(c.body, server))
    #expect(await MainActor.run { hub.isObserved } == false)
    let after = try await TestClient.get(page, port: server.port, headers: ["Host: 127.0.0.1:\(server.port)"])
    #expect(after.status == 200)
  }

  @Test(arguments: messages)
  func hostileMessageIsAnsweredWithAnErrorAndTheSessionGoesOn(_ c: Message) async throws {
    let (server, hub, host, page) = try await startServer()
    defer { Task { await server.stop() } }
    let socket = try await TestWebSocket.open(page + "session", port: server.port).get()
    defer { socket.close() }
    _ = try await socket.next { $0[LuaString("type")] == "entry" }
    try await socket.send(String(contentsOf: Self.folder.appendingPathComponent(c.file), encoding: .utf8))
    let notice = try #require(try await socket.next { $0[LuaString("type")] == "notice" })
    #expect(notice[LuaString("error")] == true)
    #expect(notice[LuaString("message")] == .text(c.notice))
    try await socket.send(#"{"type":"select","id":1}"#)
    let detail = try await socket.next { $0[LuaString("type")] == "detail" }
    #expect(detail?[LuaString("state")] == ["count": 0])
    #expect(await MainActor.run { host.state } == ["count": 0])
    #expect(await MainActor.run { hub.entries.map(\.source) } == [.connected])
  }

  @Test func corpusHasAFileForEveryCase() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
    #expect(Set(files) == Set(Self.requests.map(\.file) + Self.messages.map(\.file)))
  }
}
