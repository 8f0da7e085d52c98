import Foundation
import Testing

/// `lunar host` at a terminal: the plugins with their grants and cost, `:use`, actions, views, states.
@Suite(.enabled(if: Lunar.terminalAvailable, "needs util-linux's script to provide a terminal"))
struct HostShellTests {
  @Test func theShellListsThePluginsSwitchesBetweenThemAndShowsTheirViews() async throws {
    let data = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: data) }
    let output = try await Lunar.runAtTerminal(
      ["host", HostCommandTests.plugins.path],
      input: "increment\n:use greeter\ngreet name=Ada\n:view counter\n:state greeter\n:plugins\n:quit\n",
      environment: ["XDG_DATA_HOME": data.path])
    let lines = output.terminalLines

    #expect(lines.contains { $0.hasPrefix("✔ greeter 1.2.0  Greeter  asks for http (example.com), storage") }, "\(output)")
    #expect(lines.contains { $0.hasSuffix("[counter] → increment") }, "\(output)")
    #expect(lines.contains { $0.hasSuffix("[greeter] → greet name=\"Ada\"") }, "\(output)")
    #expect(lines.contains("count: 1"), ":view counter\n\(output)")
    #expect(lines.contains(#"{ greeting = "Hello, Ada!" }"#), ":state greeter\n\(output)")
    let header = try #require(lines.last { $0.contains("plugin   status   version  grants") }, "\(output)")
    #expect(header.contains("actions  p50"))
    #expect(lines.contains { $0.hasPrefix("counter  running  0.0.0    nothing") && $0.contains("  1  ") }, "\(output)")
  }
}

/// `lunar host examples` at a terminal.
@Suite(.enabled(if: Lunar.terminalAvailable, "needs util-linux's script to provide a terminal"))
struct HostExamplesShellTests {
  @Test func theShellShowsTheExamplesGrantsAndRunsTheDogsApp() async throws {
    let data = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: data) }
    let output = try await Lunar.runAtTerminal(
      ["host", "examples"],
      input: ":use dogs\n{ type = \"dogs\", action = { type = \"onAppear\" } }\n:wait\n:plugins\n:quit\n",
      environment: ["XDG_DATA_HOME": data.path])
    let lines = output.terminalLines

    #expect(lines.contains { $0.hasPrefix("✔ dogs 1.0.0  App  asks for http (dog.ceo)") }, "\(output)")
    #expect(lines.contains { $0.hasPrefix("dogs     running  1.0.0    http (dog.ceo)") }, "\(output)")
    #expect(lines.contains { $0.contains("affenpinscher") }, "the breeds loaded\n\(output)")
  }
}
