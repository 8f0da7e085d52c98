import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// Clients written in Lua (`lunar.client`): declared over capabilities, listed by a feature,
/// reached through `deps`, mocked in tests like any dependency.
@MainActor
@Suite struct LuaClientTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/clients")

  static var dependencies: LuaDependencies {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(.fixtures(in: folder.appendingPathComponent("fixtures/http"))))
    return dependencies
  }

  func runTests() async -> [LuaTestResult] {
    await LuaTestRunner(dependencies: Self.dependencies).run(file: Self.folder.appendingPathComponent("feature_test.lua"))
  }

  @Test func aMockedClientAnswersInATest() async {
    let result = await runTests().first { $0.name == "a mocked client answers" }
    #expect(result?.passed == true, "\(String(describing: result))")
  }

  @Test func aRealClientInATestReachesTheRecordedCapability() async {
    let result = await runTests().first { $0.name == "the real client reads the recording" }
    #expect(result?.passed == true, "\(String(describing: result))")
  }

  @Test func anUnmockedClientFailsTheTestNamingTheClientAndMethod() async throws {
    let result = try #require(await runTests().first { $0.name == "an unmocked client fails the test" })
    #expect(!result.passed)
    #expect(result.failures.contains { $0.message.contains(
      #"deps.factClient.fetch is not mocked in this test: give test.store { deps = { factClient = { fetch = function(…) … end } } }, or run the real client with { clients = { \"factClient\" } }"#
    ) }, "\(result.failures)")
  }

  @Test func aMockOfAMethodTheFeatureDoesNotHaveIsAnError() async throws {
    let result = try #require(await runTests().first { $0.name == "a mock of a method the feature does not have is an error" })
    #expect(!result.passed)
    #expect(result.failures.contains { $0.message.contains(
      "deps.factClient.fetsh is not a dependency of this feature; it has: clock.sleep, factClient.describe, factClient.fetch, http.get, http.request, now, uuid"
    ) }, "\(result.failures)")
  }

  @Test func aClientMethodThatReachesAnAsynchronousCapabilityFailsInTheReducer() async throws {
    let result = try #require(await runTests().first { $0.name == "a client method called in the reducer that reaches http fails" })
    #expect(!result.passed)
    #expect(result.failures.contains { $0.message.contains(
      "deps.factClient.fetch is asynchronous (it calls deps.http.get): call it inside fx.run(function(send) … end), not in the reducer"
    ) }, "\(result.failures)")
  }

  @Test func aFeatureRunsItsClientThroughTheHostsCapabilities() async throws {
    let harness = try FeatureHarness(dependencies: Self.dependencies)
    let feature = try harness.host.load(FeatureLocation(resolving: Self.folder.path))
    #expect(feature.clientNames == ["factClient.describe", "factClient.fetch"])
    let store = makeStore(feature.reducer(), state: feature.initialState)

    store.send(["type": "label"])
    #expect(store.state.label == "number 1")
    await store.send(["type": "factTapped"]).finish()
    #expect(store.state.fact == "1 is the loneliest number.")
    #expect(harness.takeErrors().isEmpty)
  }

  @Test(arguments: [
    (#"lunar.client "fact client" { fetch = function() end }"#, #"lunar.client expects a name like "factClient" (letters, digits and _), got "fact client""#),
    (#"lunar.client "c" {}"#, #"lunar.client "c" needs at least one method, like { fetch = function(deps, n) … end }"#),
    (#"lunar.client "c" { fetch = 3 }"#, #"lunar.client "c": method fetch must be a function(deps, …), got number 3"#),
  ])
  func aMalformedClientIsALoadErrorAtItsLine(_ declaration: String, _ message: String) throws {
    let harness = try FeatureHarness(dependencies: Self.dependencies)
    let error = try #require(throws: LuaFeatureError.self) {
      try harness.load("""
        local lunar = require "lunar"
        local client = \(declaration)
        return lunar.feature { name = "F", clients = { client }, initial = {}, reduce = function() end }
        """, chunkName: "f.lua")
    }
    #expect(error.message.contains("f.lua:2: " + message), "\(error)")
  }

  @Test func aClientNamedLikeACapabilityIsAnError() async throws {
    let harness = try FeatureHarness(dependencies: Self.dependencies)
    let feature = try harness.load("""
      local lunar = require "lunar"
      local http = lunar.client "http" { get = function() return 1 end }
      return lunar.feature { name = "F", clients = { http }, initial = {}, reduce = function() end }
      """, chunkName: "f.lua")
    let store = makeStore(feature.reducer(), state: feature.initialState)
    store.send(["type": "go"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains("the client http has the name of one of the host's dependencies (deps.http): rename the client"), "\(error)")
  }
}
