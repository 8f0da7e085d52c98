import Foundation
import TestSupport
import Testing

/// `lunar-bench [PATH]`: the feature's figure, then the built-in comparison (tiny runs here: the
/// figures are meaningless in a debug build, only their shape is checked).
struct BenchCommandTests {
  @Test func benchOfAFeatureReportsItsMixAndTheBuiltInComparison() async throws {
    let output = try await Lunar.run(
      ["examples/counter", "--iterations", "200", "--repetitions", "1", "--json"], program: "lunar-bench")
    #expect(output.status == 0, "\(output)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output)")
    let feature = try #require(object["feature"] as? [String: Any], "\(output)")
    let lua = try #require(object["lua"] as? [String: Any], "\(output)")
    #expect(feature["feature"] as? String == "Counter")
    #expect((feature["ns"] as? Double ?? 0) > 0)
    #expect(feature["errors"] as? Int == 0)
    // NB: no comparison of the figures: 200 actions of a debug build on a busy machine say nothing.
    #expect((lua["ratioToBare"] as? Double ?? 0) > 0)
    #expect((lua["lunarNs"] as? Double ?? 0) > 0)
    #expect((lua["floorNs"] as? Double ?? 0) > 0)
  }

  @Test func benchWithoutAPathRunsTheComparisonOnly() async throws {
    let output = try await Lunar.run(["--iterations", "200", "--repetitions", "1"], program: "lunar-bench")
    #expect(output.status == 0, "\(output)")
    #expect(output.stdout.hasPrefix("lua: a no-effect action"), "\(output)")
    #expect(output.stdout.contains("bare C API, state in registry"))
    #expect(output.stdout.contains("journal floor, C only"))
  }
}

/// `lunar-bench mix`: every action of the mix, timed on Lunar and on the Redux-style store (a tiny
/// run: the figures mean nothing here, only that each side ran and checked its state).
struct MixBenchTests {
  @Test func benchMixTimesEveryActionOnBothSides() async throws {
    let output = try await Lunar.run(["mix", "--iterations", "40", "--repetitions", "1", "--json"], program: "lunar-bench")
    #expect(output.status == 0, "\(output)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output)")
    let actions = try #require(object["actions"] as? [[String: Any]], "\(output)")
    #expect(actions.compactMap { $0["action"] as? String } == [
      "counter", "increment", "twoWrites", "nested", "toggleRow", "toggleRow10", "toggleRow10000", "addRemove", "addRemove10", "effect",
    ])
    for action in actions {
      #expect((action["lunarNs"] as? Double ?? 0) > 0, "\(action)")
      #expect((action["reduxNs"] as? Double ?? 0) > 0, "\(action)")
    }
  }
}

/// `lunar-bench plugins`: the scale figures' shape (a tiny run; the figures mean nothing here).
struct PluginScaleBenchTests {
  @Test func benchPluginsReportsMemoryPerVMAndStoreAndTheSpreads() async throws {
    let output = try await Lunar.run(
      ["plugins", "--stores", "50", "--vms", "5", "--actions", "200", "--repetitions", "1", "--many", "20", "--json"],
      program: "lunar-bench")
    #expect(output.status == 0, "\(output)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output)")
    #expect(object["feature"] as? String == "Counter")
    for key in ["nsOneStore", "nsSpreadStores", "nsSpreadVMs"] {
      #expect((object[key] as? Double ?? 0) > 0, "\(key): \(output)")
    }
    guard !Sanitizer.isOn else { return }
    for key in ["bytesPerVM", "luaBytesPerVM", "bytesPerUsedStore", "manyStoresBytes"] {
      #expect((object[key] as? Double ?? 0) > 0, "\(key): \(output)")
    }
    #expect((object["returnedAfterUnload"] as? Double ?? 0) > 0.5, "unloading gives most memory back: \(output)")
  }
}
