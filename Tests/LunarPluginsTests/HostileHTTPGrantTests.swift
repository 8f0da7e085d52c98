import ConcurrencyExtras
import Foundation
import LuaBridge
import LuaFeatures
@testable import LunarPlugins
import Testing

/// URLs a hostile plugin crafts to reach past its `http` grants: each is refused by Lunar's own
/// reading of the URL or by the grant, never by a transport's parser; the transport behind
/// (which answers everything) sees only what was granted.
@MainActor
@Suite struct HostileHTTPGrantTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var grants: [String]
    var url: String
    /// The end of the error, or `"200"` when the request is granted.
    var result: String
    var testDescription: String { "\(grants) \(url)" }
  }

  nonisolated static func denied(_ host: String, asks: String, add: String? = nil) -> String {
    "plugin caller was not granted http to \(host): its plugin.lua asks for \(asks); add \"\(add ?? host)\" to capabilities.http.hosts"
  }

  nonisolated static let cases: [Case] = [
    Case(grants: ["1"], url: "http://127.0.0.1/", result: denied("127.0.0.1", asks: "1")),
    Case(grants: ["0.0.1"], url: "http://127.0.0.1/", result: denied("127.0.0.1", asks: "0.0.1")),
    Case(grants: ["0.1"], url: "http://10.0.0.1/", result: denied("10.0.0.1", asks: "0.1")),
    Case(grants: ["127.0.0.1"], url: "http://127.0.0.1/", result: "200"),
    Case(grants: ["127.0.0.1"], url: "http://1.127.0.0.1/",
      result: #"request url "http://1.127.0.0.1/" is refused: its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"#),
    Case(grants: ["127.0.0.1"], url: "http://127.0.0.1:6379/", result: denied("127.0.0.1:6379", asks: "127.0.0.1")),
    Case(grants: ["127.0.0.1:8080"], url: "http://127.0.0.1:8080/", result: "200"),
    Case(grants: ["127.0.0.1:8080"], url: "http://127.0.0.1/", result: denied("127.0.0.1", asks: "127.0.0.1:8080")),
    Case(grants: ["[::1]"], url: "http://[0:0::1]/", result: "200"),
    Case(grants: ["dog.ceo"], url: "http://[::ffff:127.0.0.1]/", result: denied("[::ffff:127.0.0.1]", asks: "dog.ceo")),
    Case(grants: ["dog.ceo"], url: "https://IMAGES.dog.ceo./a.jpg", result: "200"),
    Case(grants: ["dog.ceo"], url: "https://dog.ceo:22/", result: denied("dog.ceo:22", asks: "dog.ceo")),
    Case(grants: ["dog.ceo"], url: "https://dog.ceo.evil.example/", result: denied("dog.ceo.evil.example", asks: "dog.ceo")),
    Case(grants: ["dog.ceo"], url: "https://evil.example#@dog.ceo/", result: denied("evil.example", asks: "dog.ceo")),
    Case(grants: ["dog.ceo"], url: "https://evil.example?@dog.ceo/", result: denied("evil.example", asks: "dog.ceo")),
    Case(grants: ["dog.ceo"], url: "https://evil.example\\@dog.ceo/",
      result: #"request url "https://evil.example\@dog.ceo/" is refused: it holds a backslash"#),
    Case(grants: ["dog.ceo"], url: "http://2130706433/",
      result: #"request url "http://2130706433/" is refused: its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"#),
    Case(grants: ["dog.ceo"], url: "http://dog.ceo%2F@127.0.0.1/",
      result: #"request url "http://dog.ceo%2F@127.0.0.1/" is refused: it names a user or password before '@' (send credentials in a header)"#),
    Case(grants: ["localhost"], url: "http://localhost.:80/", result: "200"),
  ]

  @Test func aURLLunarDoesNotReadIsRefusedBeforeAnAppsOwnHTTPFunction() async throws {
    let called = LockIsolated(false)
    var offered = LuaDependencies.builtIn
    offered.register("http.get", .async { _ in
      called.setValue(true)
      return ["status": 200]
    })
    let asked = PluginCapabilities(["http"], httpHosts: ["dog.ceo"])
    let text = try await GrantTests().result(
      of: ["type": "get", "url": "http://0x7f.1/"], asked: asked, grants: PluginGrants(capabilities: asked), offered: offered)
    #expect(text.hasSuffix(
      #"deps.http.get failed: request url "http://0x7f.1/" is refused: its host is an IPv4 address not written as four decimal numbers like 127.0.0.1"#),
      "\(text)")
    #expect(called.value == false)
  }

  @Test(arguments: cases)
  func aCraftedURLReachesOnlyWhatWasGranted(_ c: Case) async throws {
    let seen = LockIsolated<[HTTPRequest]>([])
    let asked = PluginCapabilities(["http"], httpHosts: c.grants)
    let text = try await GrantTests().result(
      of: ["type": "get", "url": .text(c.url)], asked: asked, grants: PluginGrants(capabilities: asked),
      offered: GrantTests.offered(answering: 0, seen: seen))
    if c.result == "200" {
      #expect(text == "200")
      #expect(seen.value.count == 1)
    } else {
      #expect(text.hasSuffix("deps.http.get failed: " + c.result), "\(text)")
      #expect(seen.value.isEmpty)
    }
  }
}
