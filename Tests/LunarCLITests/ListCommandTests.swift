import Foundation
import Testing

/// `lunar list`: the features found, their actions and dependencies.
@Suite struct ListCommandTests {
  @Test func listShowsTheCounterWithItsActionsAndDependencies() async throws {
    let output = try await Lunar.run(["list", "examples"])

    #expect(output.status == 0, "\(output)")
    let lines = output.lines
    let header = try #require(lines.firstIndex { $0.hasPrefix("Counter ") }, "\(output)")
    #expect(lines[header].hasSuffix("examples/counter/feature.lua"))
    #expect(lines[header + 1] == "  actions: increment, decrement, factTapped, factLoaded, factFailed, toggleTimer, tick")
    #expect(lines[header + 2] == "  deps:    deps.factClient.fetch, deps.clock.sleep, deps.http.get")
  }

  @Test func listJSONHasAnObjectPerFeature() async throws {
    let output = try await Lunar.run(["list", "examples/counter", "--json"])

    #expect(output.status == 0, "\(output)")
    let feature = try #require(output.events.first)
    #expect(feature.string("name") == "Counter")
    #expect(feature["actions"] as? [String] == ["increment", "decrement", "factTapped", "factLoaded", "factFailed", "toggleTimer", "tick"])
    #expect(feature["dependencies"] as? [String] == ["factClient.fetch", "clock.sleep", "http.get"])
    #expect(feature["ok"] as? Bool == true)
  }

  @Test func listExitsWith1WhenAFeatureDoesNotLoad() async throws {
    let output = try await Lunar.run(["list", Lunar.hostile("syntax_error.lua")])

    #expect(output.status == 1, "\(output)")
    #expect(output.stdout.contains("(does not load)"), "\(output)")
    #expect(output.stdout.contains("syntax_error.lua:6: unexpected symbol near '='"), "\(output)")
  }
}
