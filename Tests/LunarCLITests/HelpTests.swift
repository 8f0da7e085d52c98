import Foundation
import Testing

/// `--help`: every command teaches its options.
@Suite struct HelpTests {
  @Test func topLevelHelpListsTheCommandsAndShellCompletions() async throws {
    let output = try await Lunar.run(["--help"])

    #expect(output.status == 0, "\(output)")
    for command in ["run", "host", "test", "check", "list", "new", "replay"] {
      #expect(output.stdout.contains("  \(command) "), "missing \(command)\n\(output)")
    }
    // NB: the benchmarks are an executable of their own, lunar-bench.
    #expect(!output.stdout.contains("  bench "), "\(output)")
    #expect(output.stdout.contains("--generate-completion-script"), "\(output)")
  }

  static let subcommands: [(command: String, mentions: [String])] = [
    ("run", ["--json", "--deps", "--timeout", "--keep-going", "--record", "--seed", "feature.lua", "main.lua"]),
    ("host", ["--json", "--watch", "--deny", "plugin.lua", ":plugins", ":use", "--time-limit"]),
    ("test", ["--filter", "--json", "--deps", "_test.lua", "passed", "failed"]),
    ("check", ["--json", "file:line"]),
    ("list", ["--json"]),
    ("new", ["<name>", "lunar test"]),
    ("replay", ["--json", "--timeout", "--record"]),
  ]

  @Test(arguments: 0..<subcommands.count)
  func eachCommandsHelpMentionsItsKeyOptions(_ index: Int) async throws {
    let (command, mentions) = Self.subcommands[index]
    let output = try await Lunar.run([command, "--help"])

    #expect(output.status == 0, "\(command): \(output)")
    for mention in mentions {
      #expect(output.stdout.contains(mention), "lunar \(command) --help does not mention \(mention)\n\(output)")
    }
  }

  @Test func lunarBenchHelpListsEveryBenchmark() async throws {
    let output = try await Lunar.run(["--help"], program: "lunar-bench")

    #expect(output.status == 0, "\(output)")
    for command in ["all", "core", "lua", "feature", "mix", "bridge", "reload", "compose", "plugins"] {
      #expect(output.stdout.contains("  \(command) "), "lunar-bench --help does not list \(command)\n\(output)")
    }
  }

  @Test func completionScriptsGenerate() async throws {
    let output = try await Lunar.run(["--generate-completion-script", "bash"])

    #expect(output.status == 0, "\(output)")
    #expect(output.stdout.contains("_lunar"), "\(output)")
  }

  @Test func anUnknownCommandIsAUsageError() async throws {
    let output = try await Lunar.run(["frobnicate"])

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains("frobnicate"), "\(output)")
  }
}
