import Foundation
import LuaBridge
import LuaFeatures
import LunarPlugins
import Testing

/// An action JSON cannot hold, sent by the app to a session whose actions are written (a console,
/// a log, a recorder watching it), is refused before anything sees it: nothing is reduced, the
/// error names the field, and the session serves on.
@MainActor
struct HostileActionTests {
  @Test func aWatchedSessionRefusesAnActionHoldingNaNAndServesOn() throws {
    let harness = try PluginHarness()
    let plugin = try harness.load("counter", ["feature.lua": counterFeature])
    var seen: [LuaValue] = []
    plugin.main.onReduce = { action, _, _, _ in seen.append(action) }

    plugin.send(["type": "increment", "by": .array([.integer(1), .number(.nan)])])
    plugin.send(["type": "increment"])

    #expect(harness.errors.map(\.error.message) == [
      "the action cannot be written as JSON: action.by[2]: NaN (not a number) is not a JSON number"
    ])
    #expect(harness.errors.map(\.error.kind) == [.reducer])
    #expect(harness.errors.first?.error.action == nil)
    #expect(seen == [["type": "increment"]])
    #expect(plugin.state.value == ["count": 1])
  }

}
