import ComposableTesting
import Foundation
import LuaBridge
@testable import LuaFeatures
import TestSupport
import Testing

/// `deps.http` over `https` against a server on 127.0.0.1 with a certificate made for the test:
/// the same answers, and the same bound on a body, as over plain `http`.
@MainActor
@Suite(.serialized) final class HTTPSCapabilityTests {
  let server: LocalHTTPServer
  let trusting: HTTPTransport

  init() throws {
    server = try LocalHTTPServer(tls: true)
    trusting = .live(HTTPCurlExchange.Options(certificateAuthorities: server.certificate?.path))
  }

  deinit { server.stop() }

  func makeStore(_ transport: HTTPTransport, maximumResponseBytes: Int) throws -> TestStore<LuaState, LuaValue> {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(transport, maximumResponseBytes: maximumResponseBytes))
    let harness = try FeatureHarness(dependencies: dependencies)
    let feature = try harness.load(HTTPCapabilityTests.source, chunkName: "client.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    store.exhaustivity = .off
    store.timeout = .seconds(20)
    return store
  }

  func get(_ path: String, through transport: HTTPTransport, limit: Int = 1 << 20) async throws -> TestStore<LuaState, LuaValue> {
    let store = try makeStore(transport, maximumResponseBytes: limit)
    await store.send(["type": "get", "url": .text(server.url + path)])
    await store.receive({ [LuaString("answered"), LuaString("failed")].contains($0[LuaString("type")].stringValue.map(LuaString.init) ?? "") })
    return store
  }

  static func tooLarge(_ url: String, limit: Int) -> String {
    "deps.http.get failed: the answer from \(url) is longer than \(limit) bytes, the most a response may have here"
  }

  @Test func anAnswerFromATrustedCertificateIsAnAnswer() async throws {
    let store = try await get("/echo?x=1", through: trusting)

    #expect(store.state.status == 200, "\(store.state.message)")
    let echo = try JSONSerialization.jsonObject(with: Data(store.state.body.stringValue!.utf8)) as? [String: Any]
    #expect(echo?["path"] as? String == "/echo?x=1")
  }

  @Test func aCertificateTheHostDoesNotTrustIsRefused() async throws {
    let store = try await get("/echo", through: .live)

    #expect(store.state.message.stringValue?.hasSuffix(
      "deps.http.get failed: cannot reach \(server.url)/echo: the secure connection failed (SSL peer certificate or SSH remote key was not OK)") == true,
      "\(store.state.message)")
    #expect(server.requests().isEmpty)
  }

  @Test func aBodyAtTheLimitIsAnAnswer() async throws {
    let store = try await get("/stream/1048576", through: trusting)

    #expect(store.state.status == 200, "\(store.state.message)")
    #expect(store.state.body.stringValue?.utf8.count == 1 << 20)
  }

  @Test func aDeclaredLengthPastTheLimitIsRefusedBeforeTheBodyIsRead() async throws {
    let store = try await get("/big/268435456", through: trusting)

    #expect(store.state.message.stringValue?.hasSuffix(Self.tooLarge(server.url + "/big/268435456", limit: 1 << 20)) == true, "\(store.state.message)")
    let sent = try #require(server.bytesSent())
    #expect(sent < 64 << 20, "the server wrote \(sent) bytes of 256 MiB")
  }

  @Test func aChunkedBodyPastTheLimitStopsBeingReadThere() async throws {
    let store = try await get("/chunked/268435456", through: trusting)

    #expect(store.state.message.stringValue?.hasSuffix(Self.tooLarge(server.url + "/chunked/268435456", limit: 1 << 20)) == true, "\(store.state.message)")
    let sent = try #require(server.bytesSent())
    #expect(sent < 64 << 20, "the server wrote \(sent) bytes of 256 MiB")
  }

  @Test func aStreamedBodyPastTheLimitStopsBeingReadThere() async throws {
    let peak = PeakMemory()
    let store = try await get("/stream/268435456", through: trusting)
    let grown = peak.growth()

    #expect(store.state.message.stringValue?.hasSuffix(Self.tooLarge(server.url + "/stream/268435456", limit: 1 << 20)) == true, "\(store.state.message)")
    let sent = try #require(server.bytesSent())
    #expect(sent < 64 << 20, "the server wrote \(sent) bytes of 256 MiB")
    #expect(Sanitizer.isOn || grown < 32 << 20, "the host's memory grew by \(grown) bytes at its peak for a 256 MiB answer")
  }

  @Test func a400MBAnswerToA32MiBLimitKeepsTheHostNearTheLimit() async throws {
    let peak = PeakMemory()
    let store = try await get("/stream/400000000", through: trusting, limit: 32 << 20)
    let grown = peak.growth()

    #expect(store.state.message.stringValue?.hasSuffix(Self.tooLarge(server.url + "/stream/400000000", limit: 32 << 20)) == true, "\(store.state.message)")
    let sent = try #require(server.bytesSent())
    #expect(sent < 128 << 20, "the server wrote \(sent) bytes of 400 MB")
    #expect(Sanitizer.isOn || grown < 64 << 20, "the host's memory grew by \(grown) bytes at its peak for a 400 MB answer")
  }
}
