import LuaFeatures
import LunarPlugins
import Testing

/// An action the app sends to a plugin whose feature declares its actions passes the gate every
/// other entry uses (the prompt, `lunar host`, tests): one it does not declare is an error with the
/// same "did you mean", and the state is left as it was.
@MainActor
struct DeclaredActionGateTests {
  static let declaring = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Notes",
      initial = { notes = {} },
      actions = { add = { title = "string" } },
      reduce = function(state, action)
        state.notes[#state.notes + 1] = action.title
      end,
    }
    """

  @Test func aPluginSessionRefusesAMisspelledActionWithTheNearestDeclaredOne() throws {
    let harness = try PluginHarness()
    let plugin = try harness.load("notes", ["feature.lua": Self.declaring])
    plugin.send(["type": "addd", "title": "milk"])
    plugin.send(["type": "add"])
    plugin.send(["type": "add", "title": "milk"])
    #expect(harness.errors.map(\.error.message) == [
      #"unknown action "addd" (did you mean "add"?); Notes declares add"#,
      #"action "add" needs its field "title" (a string)"#,
    ])
    #expect(plugin.state.value == ["notes": ["milk"]])
  }
}
