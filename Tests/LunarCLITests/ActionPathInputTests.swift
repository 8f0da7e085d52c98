import Foundation
import Testing

/// A child's action typed as a path (`dogs.onAppear`, `todos[1].toggle`), the child that owns an
/// action typed at the root, `:reset` on piped input, and an error in `view`.
@Suite struct ActionPathInputTests {
  @Test func aPathIsTheChildsActionWrappedAsTheCompositionRoutesIt() async throws {
    let data = try makeTemporaryFolder()
    defer { removeTemporaryFolder(data) }
    let output = try await Lunar.run(
      ["run", "examples/todos", "--json"], input: "add title=milk\ntodos[1].toggle\n", environment: ["XDG_DATA_HOME": data.path])

    let actions = output.events.named("action").filter { $0.string("source") == "input" }.compactMap { $0["action"] as? [String: Any] }
    #expect(actions.count == 2, "\(output)")
    let toggle = try #require(actions.last)
    #expect(toggle["type"] as? String == "todos", "\(output)")
    #expect(toggle["id"] as? Int == 1, "\(output)")
    #expect((toggle["action"] as? [String: Any])?["type"] as? String == "toggle", "\(output)")
    #expect(output.events.named("state")[1]["patch"] as? [[String: Any]] != nil, "\(output)")
    #expect(output.status == 0, "\(output)")
  }

  @Test func anActionAChildDeclaresTypedAtTheRootNamesTheChild() async throws {
    let output = try await Lunar.run(["run", "examples/dogs", "--json", "--keep-going"], input: "onAppear\ndogs.onAppear\n")

    let error = try #require(output.events.named("error").first, "\(output)")
    let message = try #require(error.string("message"))
    #expect(message.hasSuffix("; dogs declares onAppear: dogs.onAppear"), "\(message)")
    let sent = output.events.named("action").filter { $0.string("source") == "input" }.compactMap { $0["action"] as? [String: Any] }
    #expect(sent.count == 1 && sent[0]["type"] as? String == "dogs", "\(output)")
  }

  @Test func resetOnPipedInputPutsTheInitialStateBack() async throws {
    let output = try await Lunar.run(["run", "examples/counter", "--json"], input: "increment\nincrement\n:reset\nincrement\n")

    let states = output.events.named("state")
    #expect(states.count == 4, "\(output)")
    #expect(states[2].state?["count"] as? Int == 0, "\(output)")
    #expect(states[3].state?["count"] as? Int == 1, "\(output)")
    #expect(output.events.named("note").first?.string("message") == "reset to the initial state", "\(output)")
  }

  @Test func anErrorInViewIsAViewErrorAndTheChangeIsMade() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try """
      local lunar = require "lunar"
      return lunar.feature {
        name = "Shaky",
        initial = { count = 0 },
        reduce = function(state, action)
          if action.type == "increment" then state.count = state.count + 1 end
        end,
        view = function(state)
          if state.count == 1 then error("no view for one") end
          return "count " .. state.count
        end,
      }
      """.write(to: folder.appendingPathComponent("feature.lua"), atomically: true, encoding: .utf8)

    let output = try await Lunar.run(["run", folder.path, "--json", "--view", "--keep-going"], input: "increment\n:view\nincrement\n")

    let errors = output.events.named("error")
    #expect(errors.count == 2, "the action's view, then :view\n\(output)")
    #expect(errors.allSatisfy { $0.string("kind") == "view" }, "\(output)")
    #expect(errors.first?["line"] as? Int == 9, "\(output)")
    let states = output.events.named("state")
    #expect(states.first?["changed"] as? Bool == true, "\(output)")
    #expect(states.last?["view"] as? String == "count 2", "\(output)")
    #expect(!output.stdout.contains("has no view"), "\(output)")
  }
}
