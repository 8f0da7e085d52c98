import Composable
import ConcurrencyExtras
import Foundation
import LuaBridge
import LuaFeatures
@testable import LunarPlugins
import Testing

/// A plugin reaches only the capabilities (and http hosts) it was granted; any other call fails
/// naming the plugin, the capability and how to grant it.
@MainActor
struct GrantTests {
  /// A feature that calls what its action names and keeps the answer or the error.
  static let caller = """
    local lunar = require "lunar"
    local fx = lunar.fx
    return lunar.feature {
      name = "Caller",
      initial = {},
      reduce = function(state, action, deps)
        if action.type == "greet" then
          local ok, result = pcall(deps.greeting.make, "Ada")
          state.result = ok and result or tostring(result)
        elseif action.type == "get" then
          local url = action.url
          return fx.run(function(send)
            send { type = "answer", text = tostring(deps.http.get(url).status) }
          end, { catch = function(err, send) send { type = "answer", text = tostring(err) } end })
        elseif action.type == "store" then
          return fx.run(function(send)
            deps.storage.set("k", 1)
            send { type = "answer", text = "stored" }
          end, { catch = function(err, send) send { type = "answer", text = tostring(err) } end })
        elseif action.type == "answer" then
          state.result = action.text
        end
      end,
    }
    """

  static var offered: LuaDependencies {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(HTTPTransport { _ in HTTPResponse(status: 200, headers: [:], body: []) }))
    dependencies.offer(.storage(file: URL(fileURLWithPath: "/tmp/unused.json"), fileStorage: .inMemory()))
    dependencies.sync("greeting.make") { (name: String) in "Hello, \(name)!" }
    return dependencies
  }

  /// The result of `action` in a plugin that asked for `asked` and was granted `granted`.
  func result(
    of action: LuaValue, asked: PluginCapabilities, granted: PluginCapabilities, hasManifestFile: Bool = true,
    policy: PluginPolicy = .grantRequested
  ) async throws -> String {
    try await result(of: action, asked: asked, grants: PluginGrants(capabilities: granted), hasManifestFile: hasManifestFile, policy: policy)
  }

  /// The result of `action` in a plugin that asked for `asked` and got `grants`, its requests
  /// answered by `offered`.
  func result(
    of action: LuaValue, asked: PluginCapabilities, grants: PluginGrants, hasManifestFile: Bool = true,
    policy: PluginPolicy = .grantRequested, offered: LuaDependencies = GrantTests.offered
  ) async throws -> String {
    let manifest = PluginManifest(
      name: "caller", version: "1.0.0", capabilities: asked, folder: URL(fileURLWithPath: "/tmp/caller"),
      hasManifestFile: hasManifestFile)
    let gate = GrantGate(manifest: manifest, granted: grants, policy: policy)
    let host = try LuaFeatureHost(dependencies: gate.guarding(offered))
    let feature = try host.load(source: Self.caller, chunkName: "feature.lua")
    let store = Store(initialState: feature.initialState) { feature.reducer() }
    await store.send(action).finish()
    return store.state.result.stringValue ?? "(none)"
  }

  @Test func aGrantedCapabilityIsReached() async throws {
    let all = PluginCapabilities(["greeting", "http", "storage"])
    #expect(try await result(of: ["type": "greet"], asked: all, granted: all) == "Hello, Ada!")
    #expect(try await result(of: ["type": "get", "url": "https://dog.ceo/x"], asked: all, granted: all) == "200")
    #expect(try await result(of: ["type": "store"], asked: all, granted: all) == "stored")
  }

  @Test func aCapabilityThePluginDidNotAskForIsRefusedSayingHowToAsk() async throws {
    let text = try await result(of: ["type": "store"], asked: .none, granted: .none)
    #expect(text.hasSuffix(
      "deps.storage.set failed: plugin caller was not granted storage: its plugin.lua does not ask for it; add storage = true to its capabilities"),
      "\(text)")
    let client = try await result(of: ["type": "greet"], asked: .none, granted: .none)
    #expect(client.contains("plugin caller was not granted greeting: its plugin.lua does not ask for it"), "\(client)")
  }

  @Test func aPluginWithoutManifestIsToldToGetOne() async throws {
    let text = try await result(of: ["type": "get", "url": "https://dog.ceo/x"], asked: .none, granted: .none, hasManifestFile: false)
    #expect(text.contains(
      "plugin caller was not granted http: it has no plugin.lua, so it asks for nothing; give it one that asks with capabilities = { http = { hosts = { \"…\" } } }"),
      "\(text)")
  }

  @Test func aCapabilityThePolicyDeniedNamesThePolicysRemedy() async throws {
    let asked = PluginCapabilities(["http"])
    let policy = PluginPolicy.denying(["http"], denialHint: { plugin, capability in "started with --deny \(capability)" })
    let text = try await result(of: ["type": "get", "url": "https://dog.ceo/x"], asked: asked, granted: .none, policy: policy)
    #expect(text.hasSuffix("plugin caller was not granted http: started with --deny http"), "\(text)")
  }

  @Test func httpReachesOnlyTheGrantedHostsAndTheirSubdomains() async throws {
    let asked = PluginCapabilities(["http"], httpHosts: ["dog.ceo"])
    #expect(try await result(of: ["type": "get", "url": "https://images.dog.ceo/a.jpg"], asked: asked, granted: asked) == "200")
    let text = try await result(of: ["type": "get", "url": "https://evil.example/dog.ceo"], asked: asked, granted: asked)
    #expect(text.hasSuffix(
      "plugin caller was not granted http to evil.example: its plugin.lua asks for dog.ceo; add \"evil.example\" to capabilities.http.hosts"),
      "\(text)")
    let lookalike = try await result(of: ["type": "get", "url": "https://notdog.ceo/"], asked: asked, granted: asked)
    #expect(lookalike.contains("not granted http to notdog.ceo"), "\(lookalike)")
    let userinfo = try await result(of: ["type": "get", "url": "https://dog.ceo@evil.example/"], asked: asked, granted: asked)
    #expect(userinfo.hasSuffix(
      #"deps.http.get failed: request url "https://dog.ceo@evil.example/" is refused: it names a user or password before '@' (send credentials in a header)"#),
      "\(userinfo)")
  }

  /// `offered`, its `http` answering `bytes` bytes and keeping each request it sees.
  static func offered(answering bytes: Int, seen: LockIsolated<[HTTPRequest]>) -> LuaDependencies {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(HTTPTransport { request in
      seen.withValue { $0.append(request) }
      return HTTPResponse(status: 200, body: Array(repeating: 0, count: bytes))
    }))
    return dependencies
  }

  @Test func aPluginsResponseLimitIsItsMemoryLimit() async throws {
    let seen = LockIsolated<[HTTPRequest]>([])
    let http = PluginCapabilities(["http"])
    let grants = PluginGrants(capabilities: http, limits: LuaVM.Limits(memoryBytes: 8 << 20))
    let text = try await result(
      of: ["type": "get", "url": "https://dog.ceo/x"], asked: http, grants: grants,
      offered: Self.offered(answering: (8 << 20) + 1, seen: seen))
    #expect(seen.value.map(\.maximumResponseBytes) == [8 << 20])
    #expect(text.hasSuffix(
      "deps.http.get failed: the answer from https://dog.ceo/x is longer than 8388608 bytes, the most a response may have here"),
      "\(text)")
  }

  @Test func aPolicyMaySetAPluginsResponseQuota() async throws {
    let seen = LockIsolated<[HTTPRequest]>([])
    let http = PluginCapabilities(["http"])
    let grants = PluginGrants(capabilities: http, httpResponseBytes: 1000)
    let answered = try await result(
      of: ["type": "get", "url": "https://dog.ceo/x"], asked: http, grants: grants, offered: Self.offered(answering: 1000, seen: seen))
    #expect(answered == "200")
    #expect(seen.value.map(\.maximumResponseBytes) == [1000])
  }

  @Test func theDefaultResponseQuotaIsTheMemoryLimitUpTo64MiB() {
    #expect(PluginGrants(capabilities: .none, limits: LuaVM.Limits(memoryBytes: 32 << 20)).effectiveHTTPResponseBytes == 32 << 20)
    #expect(PluginGrants(capabilities: .none).effectiveHTTPResponseBytes == 64 << 20)
    #expect(PluginGrants(capabilities: .none, limits: .unlimited).effectiveHTTPResponseBytes == 64 << 20)
  }

  @Test func builtInsAreEveryPlugins() async throws {
    #expect(GrantGate.builtIn == ["clock", "now", "uuid"])
  }

  @Test func policiesGrantWhatIsAskedMinusWhatTheyDeny() {
    let manifest = PluginManifest(
      name: "dogs", version: "1.0.0", capabilities: PluginCapabilities(["http", "storage"], httpHosts: ["dog.ceo"]),
      folder: URL(fileURLWithPath: "/tmp/dogs"))
    let proposed = PluginGrants(capabilities: manifest.capabilities)
    #expect(PluginPolicy.grantRequested.decide(manifest, proposed).capabilities == manifest.capabilities)
    #expect(PluginPolicy.grantNothing.decide(manifest, proposed).capabilities == .none)
    #expect(PluginPolicy.denying([], byPlugin: ["dogs": ["http"]]).decide(manifest, proposed).capabilities
      == PluginCapabilities(["storage"]))
    #expect(PluginPolicy.denying([], byPlugin: ["cats": ["http"]]).decide(manifest, proposed).capabilities
      == manifest.capabilities)
  }
}
