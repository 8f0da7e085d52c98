import Foundation
import Testing

/// `lunar run` at a terminal: a prompt, state diffs, errors with `file:line`, commands.
@Suite(.enabled(if: Lunar.terminalAvailable, "needs util-linux's script to provide a terminal"))
struct TerminalTests {
  @Test func atATerminalRunShowsAPromptDiffsAndErrorsWithTheirLine() async throws {
    let output = try await Lunar.runAtTerminal(
      ["run", Lunar.fixture("faulty")], input: "increment\ncrash\n:state\n:quit\n"
    )
    let lines = output.terminalLines

    // NB: The terminal shows the typed lines too, after their prompt.
    #expect(lines.contains("Faulty  — type an action (increment, add title=milk, { type = \"x\" }), :help for commands"), "\(output)")
    #expect(lines.contains("> increment"), "\(output)")
    #expect(lines.contains("→ increment"), "output never shares a line with the prompt\n\(output)")
    #expect(lines.contains("-   count = 0,"), "\(output)")
    #expect(lines.contains("+   count = 1,"), "\(output)")
    #expect(lines.contains("error: Faulty: feature.lua:13: attempt to index a nil value (local 'missing')"), "\(output)")
    #expect(lines.contains("  state left unchanged"), "\(output)")
    #expect(lines.contains("  (no state change)"), "\(output)")
    #expect(lines.contains("{ count = 1 }"), ":state shows the state\n\(output)")
  }

  @Test func atATerminalAnErrorDoesNotEndTheSession() async throws {
    let output = try await Lunar.runAtTerminal(["run", "examples/counter"], input: "123abc\nincrement\n:quit\n")
    let text = output.stdout.replacingOccurrences(of: "\r\n", with: "\n")

    #expect(text.contains("error: an action starts with its type (a name like increment), got '123abc'"), "\(output)")
    #expect(text.contains("→ increment"), "\(output)")
  }
}
