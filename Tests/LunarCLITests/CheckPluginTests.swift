import Foundation
import Testing

/// `lunar check` reads a plugin's manifest and checks its entry feature.
struct CheckPluginTests {
  static let fixtures = Lunar.testsFolder.appendingPathComponent("Fixtures")

  @Test func checkValidatesAPluginsManifestAndItsEntryFeature() async throws {
    let output = try await Lunar.run(["check", "--json", Self.fixtures.appendingPathComponent("plugins").path])
    #expect(output.status == 0, "\(output)")
    let greeter = try #require(output.events.first { $0.string("feature") == "Greeter" }, "\(output)")
    let plugin = try #require(greeter["plugin"] as? [String: Any])
    #expect(plugin["name"] as? String == "greeter")
    #expect(plugin["version"] as? String == "1.2.0")
    #expect((plugin["capabilities"] as? [String: Any])?["storage"] as? Bool == true)
    #expect(output.events.contains { $0.string("feature") == "Counter" && $0["plugin"] is NSNull })
  }

  @Test func checkRefusesAnAPIThisHostDoesNotOfferWithFileAndLine() async throws {
    let output = try await Lunar.run(["check", Self.fixtures.appendingPathComponent("future_plugin").path])
    #expect(output.status == 1, "\(output)")
    #expect(output.stdout.contains(
      "plugin.lua:6: api = 2 is a version of the Lua API this host does not offer (it offers api = 1)"), "\(output)")
  }
}
