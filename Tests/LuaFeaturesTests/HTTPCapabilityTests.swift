import ComposableTesting
import Foundation
import LuaBridge
@testable import LuaFeatures
import TestSupport
import Testing

/// `deps.http` against a real server on 127.0.0.1, offline from recorded fixtures, and recording them.
@MainActor
@Suite(.serialized) final class HTTPCapabilityTests {
  let server: LocalHTTPServer
  let fixtures: URL

  init() throws {
    server = try LocalHTTPServer()
    fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-http-\(UUID().uuidString)")
  }

  deinit {
    server.stop()
    try? FileManager.default.removeItem(at: fixtures)
  }

  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx

    local function call(fn)
      return fx.run(function(send)
        local ok, result = pcall(fn)
        if ok then
          -- NB: actions hold text only, as state does (both are written as JSON): a binary body
          --     is sent as its bytes.
          local body = utf8.len(result.body) and result.body or { result.body:byte(1, -1) }
          send { type = "answered", status = result.status, body = body, headers = result.headers }
        else
          send { type = "failed", message = result }
        end
      end):cancellable("request", { cancelInFlight = true })
    end

    return lunar.feature {
      name = "Client",
      initial = {},
      reduce = function(state, action, deps)
        local t = action.type
        if t == "get" then
          return call(function() return deps.http.get(action.url, action.headers) end)
        elseif t == "request" then
          return call(function() return deps.http.request(action.request) end)
        elseif t == "cancel" then
          return fx.cancel("request")
        elseif t == "inReducer" then
          deps.http.get(action.url)
        elseif t == "answered" then
          state.status, state.body, state.headers, state.message = action.status, action.body, action.headers, nil
        elseif t == "failed" then
          state.status, state.body, state.message = nil, nil, action.message
        end
      end,
    }
    """

  func makeStore(
    _ transport: HTTPTransport, maximumResponseBytes: Int = HTTPRequest.defaultMaximumResponseBytes
  ) throws -> (TestStore<LuaState, LuaValue>, FeatureHarness) {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(transport, maximumResponseBytes: maximumResponseBytes))
    let harness = try FeatureHarness(dependencies: dependencies)
    let feature = try harness.load(Self.source, chunkName: "client.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    store.exhaustivity = .off
    store.timeout = .seconds(10)
    return (store, harness)
  }

  func send(_ store: TestStore<LuaState, LuaValue>, _ action: LuaValue) async {
    await store.send(action)
    await store.receive({ [LuaString("answered"), LuaString("failed")].contains($0[LuaString("type")].stringValue.map(LuaString.init) ?? "") })
  }

  @Test func getReturnsStatusHeadersAndBody() async throws {
    let (store, _) = try makeStore(.live)
    await send(store, ["type": "get", "url": .text(server.url + "/echo?x=1"), "headers": ["x-token": "secret"]])

    #expect(store.state.status == 200)
    #expect(store.state.headers[LuaString("content-type")] == "application/json")
    let echo = try JSONSerialization.jsonObject(with: Data(store.state.body.stringValue!.utf8)) as? [String: Any]
    #expect(echo?["method"] as? String == "GET")
    #expect(echo?["path"] as? String == "/echo?x=1")
    #expect((echo?["headers"] as? [String: String])?["x-token"] == "secret")
  }

  @Test func requestSendsMethodHeadersAndBody() async throws {
    let (store, _) = try makeStore(.live)
    let request: LuaValue = [
      "method": "post", "url": .text(server.url + "/echo"), "body": "hello", "headers": ["content-type": "text/plain"],
    ]
    await send(store, ["type": "request", "request": request])

    let echo = try JSONSerialization.jsonObject(with: Data(store.state.body.stringValue!.utf8)) as? [String: Any]
    #expect(echo?["method"] as? String == "POST")
    #expect(echo?["body"] as? String == "hello")
  }

  @Test func anErrorStatusIsAnAnswerNotAnError() async throws {
    let (store, _) = try makeStore(.live)
    await send(store, ["type": "get", "url": .text(server.url + "/status/404")])

    #expect(store.state.status == 404)
    #expect(store.state.body == "status 404")
  }

  @Test func aRedirectIsAnAnswerNotFollowed() async throws {
    let (store, _) = try makeStore(.live)
    await send(store, ["type": "get", "url": .text(server.url + "/redirect")])

    #expect(store.state.status == 302)
    #expect(store.state.headers[LuaString("location")] == "/echo?redirected=1")
    #expect(server.requests(atLeast: 1) == ["GET /redirect"])
  }

  @Test func anInterimAnswerIsFollowedByTheRealOne() async throws {
    let (store, _) = try makeStore(.live)
    await send(store, ["type": "get", "url": .text(server.url + "/interim")])

    #expect(store.state.status == 200)
    #expect(store.state.body == "after")
    #expect(store.state.headers[LuaString("x-early")].isNil)
  }

  @Test func aHeadLongerThan64KiBIsAnErrorNotAnAnswer() async throws {
    let (store, _) = try makeStore(.live)
    await send(store, ["type": "get", "url": .text(server.url + "/longhead")])

    #expect(store.state.message.stringValue?.hasSuffix(
      "deps.http.get failed: cannot reach \(server.url)/longhead: the answer's head is longer than 65536 bytes") == true,
      "\(store.state.message)")
  }

  @Test func aRefusedConnectionIsAnErrorNamingTheURL() async throws {
    let (store, _) = try makeStore(.live)
    await send(store, ["type": "get", "url": "http://127.0.0.1:1/nothing"])

    #expect(store.state.message.stringValue?.hasSuffix("deps.http.get failed: cannot reach http://127.0.0.1:1/nothing: the connection was refused") == true, "\(store.state.message)")
  }

  @Test func aTimeoutIsAnErrorNamingTheURLAndTheSeconds() async throws {
    let (store, _) = try makeStore(.live)
    await send(store, ["type": "request", "request": ["url": .text(server.url + "/slow"), "timeout": 0.3]])

    #expect(store.state.message.stringValue?.hasSuffix("deps.http.request failed: no answer from \(server.url)/slow within 0.3 seconds") == true, "\(store.state.message)")
  }

  @Test func cancellingTheEffectCancelsTheRequest() async throws {
    let (store, _) = try makeStore(.live)
    await store.send(["type": "get", "url": .text(server.url + "/slow")])
    await store.send(["type": "cancel"])
    // NB: the request takes 5 seconds; finish waits at most 2 for the effect to end.
    await store.finish(timeout: .seconds(2))
    #expect(store.state.status.isNil)
  }

  @Test(arguments: [
    (LuaValue.table(["url": "ftp://example.com/x"]), #"request url must be an absolute http:// or https:// URL, got "ftp://example.com/x""#),
    (LuaValue.table(["url": "http://x", "timeout": -1]), "request timeout must be a number of seconds above 0 and at most 600, got -1"),
    (LuaValue.table(["url": "http://x", "body": ["a": 1]]), "request body must be a string (encode tables with lunar.json.encode), got table"),
    (LuaValue.table(["url": "http://x", "verb": "GET"]), "request has no field 'verb' (fields: method, url, headers, body, timeout)"),
  ])
  func aMalformedRequestIsAnErrorThatSaysWhatIsWrong(_ request: LuaValue, _ message: String) async throws {
    let (store, _) = try makeStore(.live)
    await send(store, ["type": "request", "request": request])

    #expect(store.state.message.stringValue?.hasSuffix("deps.http.request failed: " + message) == true, "\(store.state.message)")
  }

  @Test func callingItInTheReducerIsTheAsynchronousCallError() async throws {
    let (store, harness) = try makeStore(.live)
    await store.send(["type": "inReducer", "url": .text(server.url + "/echo")])

    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains("deps.http.get is asynchronous: call it inside fx.run"), "\(error)")
    #expect(server.requests().isEmpty)
  }

  @Test func offlineWithoutARecordingIsAnErrorNamingTheFileItLookedFor() async throws {
    let (store, _) = try makeStore(.fixtures(in: fixtures))
    let url = server.url + "/echo?q=1"
    await send(store, ["type": "get", "url": .text(url)])

    let file = HTTPFixture.fileName(for: HTTPRequest(url: url))
    #expect(store.state.message.stringValue?.hasSuffix(
      "deps.http.get failed: no recorded response for GET \(url) (looked for \(fixtures.appendingPathComponent(file).standardizedFileURL.path); record it with --deps record)"
    ) == true, "\(store.state.message)")
    #expect(server.requests().isEmpty)
  }

  @Test func aRecordedAnswerIsServedOfflineWithoutTheNetwork() async throws {
    let url = server.url + "/binary"
    let (recording, _) = try makeStore(.recording(to: fixtures))
    await send(recording, ["type": "get", "url": .text(url)])
    let recorded = recording.state.body
    #expect(recorded.stringValue == nil, "binary, not text")
    server.stop()

    let (offline, _) = try makeStore(.fixtures(in: fixtures))
    await send(offline, ["type": "get", "url": .text(url)])

    #expect(offline.state.status == 200)
    #expect(offline.state.body == recorded)
    #expect(offline.state.headers[LuaString("x-server")] == "local")
    let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
    #expect(names == [HTTPFixture.fileName(for: HTTPRequest(url: url))])
    #expect(names.first?.hasPrefix("GET-127.0.0.1-") == true)
  }

  @Test func aBodyAtTheLimitIsAnAnswer() async throws {
    let (store, _) = try makeStore(.live, maximumResponseBytes: 1 << 20)
    await send(store, ["type": "get", "url": .text(server.url + "/stream/1048576")])

    #expect(store.state.status == 200)
    #expect(store.state.body.stringValue?.utf8.count == 1 << 20)
  }

  @Test func aChunkedBodyIsReadWhole() async throws {
    let (store, _) = try makeStore(.live, maximumResponseBytes: 1 << 20)
    await send(store, ["type": "get", "url": .text(server.url + "/chunked/200000")])

    #expect(store.state.status == 200)
    #expect(store.state.body.stringValue == String(repeating: "x", count: 200_000))
  }

  /// The request for `url` failed as longer than the 1 MiB limit, and the server wrote far less than
  /// its 256 MiB.
  private func expectRefusedPastOneMiB(_ url: String, _ store: TestStore<LuaState, LuaValue>, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(store.state.message.stringValue?.hasSuffix(
      "deps.http.get failed: the answer from \(url) is longer than 1048576 bytes, the most a response may have here") == true,
      "\(store.state.message)", sourceLocation: sourceLocation)
    let sent = try #require(server.bytesSent(), sourceLocation: sourceLocation)
    #expect(sent < 64 << 20, "the server wrote \(sent) bytes of 256 MiB", sourceLocation: sourceLocation)
  }

  @Test func aChunkedBodyPastTheLimitStopsBeingReadThere() async throws {
    let (store, _) = try makeStore(.live, maximumResponseBytes: 1 << 20)
    let url = server.url + "/chunked/268435456"
    await send(store, ["type": "get", "url": .text(url)])

    try expectRefusedPastOneMiB(url, store)
  }

  @Test func aDeclaredLengthPastTheLimitIsRefusedBeforeTheBodyIsRead() async throws {
    let (store, _) = try makeStore(.live, maximumResponseBytes: 1 << 20)
    let url = server.url + "/big/268435456"
    await send(store, ["type": "get", "url": .text(url)])

    try expectRefusedPastOneMiB(url, store)
  }

  @Test func aStreamedBodyPastTheLimitStopsBeingReadThere() async throws {
    let (store, _) = try makeStore(.live, maximumResponseBytes: 1 << 20)
    let url = server.url + "/stream/268435456"
    let peak = PeakMemory()
    await send(store, ["type": "get", "url": .text(url)])
    let grown = peak.growth()

    // NB: what the server wrote past the limit sat in the sockets' buffers, not in the host.
    try expectRefusedPastOneMiB(url, store)
    #expect(Sanitizer.isOn || grown < 32 << 20, "the host's memory grew by \(grown) bytes at its peak for a 256 MiB answer")
  }

  @Test func aBodyThroughAProxyPastTheLimitStopsBeingReadThere() async throws {
    // NB: nothing listens on port 1: only the proxy can answer.
    let (store, _) = try makeStore(.live(HTTPCurlExchange.Options(proxy: server.url)), maximumResponseBytes: 1 << 20)
    let url = "http://127.0.0.1:1/stream/268435456"
    let peak = PeakMemory()
    await send(store, ["type": "get", "url": .text(url)])
    let grown = peak.growth()

    try expectRefusedPastOneMiB(url, store)
    #expect(server.requests(atLeast: 1) == ["GET \(url)"])
    #expect(Sanitizer.isOn || grown < 32 << 20, "the host's memory grew by \(grown) bytes at its peak for a 256 MiB answer")
  }

  /// Writes a recording for `url` whose body is `body`, and returns its file.
  func record(_ url: String, body: String) throws -> URL {
    try HTTPFixture(request: HTTPRequest(url: url), response: HTTPResponse(status: 200, body: Array(body.utf8)))
      .write(in: fixtures)
    return fixtures.appendingPathComponent(HTTPFixture.fileName(for: HTTPRequest(url: url)))
  }

  @Test func aRecordingLargerThanTheLimitIsRefusedBeforeItIsRead() async throws {
    let url = "https://dog.ceo/big"
    let file = try record(url, body: String(repeating: "x", count: 2 << 20))
    let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
    let (store, _) = try makeStore(.fixtures(in: fixtures), maximumResponseBytes: 1 << 20)
    await send(store, ["type": "get", "url": .text(url)])

    #expect(store.state.message.stringValue?.hasSuffix(
      "deps.http.get failed: the recorded response \(file.standardizedFileURL.path) cannot be read: it has \(size) bytes, over the limit of 1463637 bytes for a recording here") == true,
      "\(store.state.message)")
  }

  @Test func aRecordedBodyLongerThanTheLimitIsRefused() async throws {
    let url = "https://dog.ceo/longer"
    let file = try record(url, body: String(repeating: "x", count: (1 << 20) + 1))
    let (store, _) = try makeStore(.fixtures(in: fixtures), maximumResponseBytes: 1 << 20)
    await send(store, ["type": "get", "url": .text(url)])

    #expect(store.state.message.stringValue?.hasSuffix(
      "deps.http.get failed: the recorded response \(file.standardizedFileURL.path) cannot be read: its body has 1048577 bytes, over the limit of 1048576 bytes for a response here") == true,
      "\(store.state.message)")
  }

  @Test func aRecordingThatIsASymlinkIsRefused() async throws {
    let url = "https://dog.ceo/linked"
    let target = try record("https://dog.ceo/elsewhere", body: "secret")
    let file = fixtures.appendingPathComponent(HTTPFixture.fileName(for: HTTPRequest(url: url)))
    try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
    let (store, _) = try makeStore(.fixtures(in: fixtures))
    await send(store, ["type": "get", "url": .text(url)])

    #expect(store.state.message.stringValue?.hasSuffix(
      "deps.http.get failed: the recorded response \(file.standardizedFileURL.path) cannot be read: it is a symlink; a recording is a file of its own") == true,
      "\(store.state.message)")
    #expect(store.state.body.isNil)
  }

  @Test func aRecordingsFolderLeadingOutOfTheFeatureIsRefused() async throws {
    let url = "https://dog.ceo/outside"
    let outside = fixtures.appendingPathComponent("outside")
    try HTTPFixture(request: HTTPRequest(url: url), response: HTTPResponse(status: 200, body: Array("secret".utf8)))
      .write(in: outside.appendingPathComponent("http"))
    let feature = fixtures.appendingPathComponent("feature")
    try FileManager.default.createDirectory(at: feature, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: feature.appendingPathComponent("fixtures"), withDestinationURL: outside)
    let folder = feature.appendingPathComponent("fixtures/http")
    let name = HTTPFixture.fileName(for: HTTPRequest(url: url))
    let (store, _) = try makeStore(.fixtures(in: folder, within: feature))
    await send(store, ["type": "get", "url": .text(url)])

    #expect(store.state.message.stringValue?.hasSuffix(
      "deps.http.get failed: the recorded response \(folder.appendingPathComponent(name).standardizedFileURL.path) cannot be read: 'fixtures/http/\(name)' leads out of the feature's folder (through a symlink)") == true,
      "\(store.state.message)")
  }
}
