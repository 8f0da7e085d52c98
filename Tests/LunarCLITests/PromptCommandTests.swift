import Foundation
import Testing

/// The prompt's `:` commands are one set: each host lists, in `:help`, the ones it serves, and
/// refuses the others as unknown.
@Suite struct PromptCommandTests {
  static func commands(in help: String) -> [String] {
    help.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ")
      return words.first.flatMap { $0.hasPrefix(":") ? String($0) : nil }
    }
  }

  @Test func runsHelpListsTheCommandsOfOneFeature() async throws {
    let output = try await Lunar.run(["run", "examples/counter"], input: ":help\n")

    #expect(output.status == 0, "\(output)")
    let help = try #require(output.events.named("note").first?.string("message"), "\(output)")
    #expect(help.hasPrefix("Type an action and press return:\n"), "\(help)")
    #expect(Self.commands(in: help) == [":state", ":view", ":history", ":mute", ":unmute", ":expand", ":reset", ":deps", ":wait", ":help", ":quit"], "\(help)")
  }

  @Test func hostsHelpListsTheCommandsOfPlugins() async throws {
    let data = try makeTemporaryFolder()
    defer { removeTemporaryFolder(data) }
    let output = try await Lunar.run(
      ["host", HostCommandTests.plugins.path], input: #"{"command": "help"}"# + "\n", environment: ["XDG_DATA_HOME": data.path])

    #expect(output.status == 0, "\(output)")
    let help = try #require(output.events.named("note").first?.string("message"), "\(output)")
    #expect(
      Self.commands(in: help) == [":plugins", ":use", ":state", ":view", ":reload", ":unload", ":load", ":wait", ":help", ":quit"],
      "\(help)")
  }

  @Test func aCommandOfTheOtherHostIsUnknownAtRunsPrompt() async throws {
    let output = try await Lunar.run(["run", "examples/counter", "--keep-going"], input: ":use counter\n:state\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").map { $0.string("message") } == ["unknown command :use counter (try :help)"], "\(output)")
    #expect(output.events.named("note").count == 1, "\(output)")
  }

  @Test func waitWithAWordAfterItStillWaits() async throws {
    let output = try await Lunar.run(["run", "examples/counter"], input: "factTapped\n:wait please\ndecrement\n")

    #expect(output.status == 0, "\(output)")
    let names = output.events.compactMap(\.name)
    let finished = try #require(output.events.firstIndex { $0.name == "effect" && $0.string("status") == "finished" }, "\(output)")
    let decrement = try #require(output.events.lastIndex { $0.name == "action" }, "\(names)")
    #expect(finished < decrement, "\(names)")
  }
}
