import ComposableTesting
import ConcurrencyExtras
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// Requests a hostile script crafts are refused by Lunar itself, before any transport sees them,
/// with an error saying what is wrong; the ones that pass reach the transport normalised.
@MainActor
@Suite struct HostileHTTPRequestTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var request: LuaValue
    var message: String
    var testDescription: String { name }
  }

  nonisolated static func url(_ url: String) -> LuaValue { ["url": .text(url)] }
  nonisolated static func headers(_ headers: LuaValue) -> LuaValue { ["url": "https://dog.ceo/", "headers": headers] }

  nonisolated static let refused: [Case] = [
    Case(name: "decimal IPv4", request: url("http://2130706433/"),
      message: #"request url "http://2130706433/" is refused: its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"#),
    Case(name: "hex IPv4", request: url("http://0x7f.1/"),
      message: #"request url "http://0x7f.1/" is refused: its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"#),
    Case(name: "octal IPv4", request: url("http://0177.0.0.1/"),
      message: #"request url "http://0177.0.0.1/" is refused: its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"#),
    Case(name: "short IPv4", request: url("http://127.1/"),
      message: #"request url "http://127.1/" is refused: its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"#),
    Case(name: "user info", request: url("http://dog.ceo@127.0.0.1/"),
      message: #"request url "http://dog.ceo@127.0.0.1/" is refused: it names a user or password before '@' (send credentials in a header)"#),
    Case(name: "percent-encoded host", request: url("http://%64og.ceo/"),
      message: #"request url "http://%64og.ceo/" is refused: its host is percent-encoded"#),
    Case(name: "backslash", request: url(#"http://dog.ceo\@127.0.0.1/"#),
      message: #"request url "http://dog.ceo\@127.0.0.1/" is refused: it holds a backslash"#),
    Case(name: "space", request: url("http://dog.ceo /"),
      message: #"request url "http://dog.ceo /" is refused: it holds a space, a control character or a non-ASCII character (percent-encode them)"#),
    Case(name: "CR LF in the URL", request: url("http://dog.ceo/\r\nX-Evil: 1"),
      message: #"request url "http://dog.ceo/\r\nX-Evil: 1" is refused: it holds a space, a control character or a non-ASCII character (percent-encode them)"#),
    Case(name: "non-ASCII host", request: url("http://dög.ceo/"),
      message: #"request url "http://d\xc3\xb6g.ceo/" is refused: it holds a space, a control character or a non-ASCII character (percent-encode them)"#),
    Case(name: "IPv6 zone", request: url("http://[fe80::1%25eth0]/"),
      message: #"request url "http://[fe80::1%25eth0]/" is refused: its host is percent-encoded"#),
    Case(name: "IPv6 without brackets", request: url("http://::1/"),
      message: #"request url "http://::1/" is refused: its host is not a name of letters, digits and '-' between dots like dog.ceo"#),
    Case(name: "port out of range", request: url("http://dog.ceo:65536/"),
      message: #"request url "http://dog.ceo:65536/" is refused: its port is not a number from 1 to 65535"#),
    Case(name: "empty host", request: url("http:///etc/passwd"),
      message: #"request url "http:///etc/passwd" is refused: it has no host"#),
    Case(name: "file scheme", request: url("file:///etc/passwd"),
      message: #"request url must be an absolute http:// or https:// URL, got "file:///etc/passwd""#),
    Case(name: "Host header", request: headers(["Host": "intranet.example"]),
      message: #"request headers["Host"] cannot be set: a request's host is its url's"#),
    Case(name: "host header in lower case", request: headers(["host": "intranet.example"]),
      message: #"request headers["host"] cannot be set: a request's host is its url's"#),
    Case(name: "Content-Length header", request: headers(["Content-Length": "0"]),
      message: #"request headers["Content-Length"] cannot be set: the host frames the request itself"#),
    Case(name: "Transfer-Encoding header", request: headers(["transfer-encoding": "chunked"]),
      message: #"request headers["transfer-encoding"] cannot be set: the host frames the request itself"#),
    Case(name: "CR LF in a header name", request: headers(["x-a\r\nx-evil": "1"]),
      message: #"request headers["x-a\r\nx-evil"]: a header name is a token (letters, digits and !#$%&'*+-.^_`|~)"#),
    Case(name: "colon in a header name", request: headers(["x-a: b": "1"]),
      message: #"request headers["x-a: b"]: a header name is a token (letters, digits and !#$%&'*+-.^_`|~)"#),
    Case(name: "empty header name", request: headers(["": "1"]),
      message: #"request headers[""]: a header name is a token (letters, digits and !#$%&'*+-.^_`|~)"#),
    Case(name: "CR LF in a header value", request: headers(["x-a": "1\r\nx-evil: 2"]),
      message: #"request headers["x-a"] holds a line break or a NUL byte: a header's value is one line"#),
    Case(name: "NUL in a header value", request: headers(["x-a": "1\u{0}2"]),
      message: #"request headers["x-a"] holds a line break or a NUL byte: a header's value is one line"#),
  ]

  /// The message of the error `request` raises, and the requests the transport saw.
  func run(_ request: LuaValue, transport answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in
    HTTPResponse(status: 200)
  }, maximumResponseBytes: Int = HTTPRequest.defaultMaximumResponseBytes) async throws -> (LuaValue, [HTTPRequest]) {
    let seen = LockIsolated<[HTTPRequest]>([])
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(HTTPTransport { request in
      seen.withValue { $0.append(request) }
      return answer(request)
    }, maximumResponseBytes: maximumResponseBytes))
    let harness = try FeatureHarness(dependencies: dependencies)
    let feature = try harness.load(HTTPCapabilityTests.source, chunkName: "client.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    store.exhaustivity = .off
    store.timeout = .seconds(10)
    await store.send(["type": "request", "request": request])
    await store.receive({ [LuaString("answered"), LuaString("failed")].contains($0[LuaString("type")].stringValue.map(LuaString.init) ?? "") })
    return (store.state.message.isNil ? store.state.status : store.state.message, seen.value)
  }

  @Test(arguments: refused)
  func aCraftedRequestIsRefusedBeforeTheTransportSeesIt(_ c: Case) async throws {
    let (result, seen) = try await run(c.request)
    #expect(result.stringValue?.hasSuffix("deps.http.request failed: " + c.message) == true, "\(result)")
    #expect(seen.isEmpty)
  }

  @Test func aURLReachesTheTransportWithItsHostNormalised() async throws {
    let (result, seen) = try await run(Self.url("HTTPS://Images.DOG.ceo.:443/Breeds?q=A"))
    #expect(result == 200)
    #expect(seen.map(\.url) == ["https://images.dog.ceo:443/Breeds?q=A"])
  }

  @Test func anIPv6HostReachesTheTransportInItsShortestForm() async throws {
    let (_, seen) = try await run(Self.url("http://[0:0:0:0:0:0:0:1]:8080/x"))
    #expect(seen.map(\.url) == ["http://[::1]:8080/x"])
  }

  @Test func theTransportIsToldTheResponseLimit() async throws {
    let (_, seen) = try await run(Self.url("https://dog.ceo/"), maximumResponseBytes: 1234)
    #expect(seen.map(\.maximumResponseBytes) == [1234])
  }

  @Test func aTransportThatIgnoresTheLimitIsRefusedItsLongerBody() async throws {
    let (result, _) = try await run(Self.url("https://dog.ceo/big"), transport: { _ in
      HTTPResponse(status: 200, body: Array(repeating: 1, count: 1001))
    }, maximumResponseBytes: 1000)
    #expect(result.stringValue?.hasSuffix(
      "deps.http.request failed: the answer from https://dog.ceo/big is longer than 1000 bytes, the most a response may have here") == true,
      "\(result)")
  }
}
