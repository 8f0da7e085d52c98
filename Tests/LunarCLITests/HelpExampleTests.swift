import Foundation
import Testing

/// What the help shows can be used as shown.
@Suite struct HelpExampleTests {
  @Test func theTestFileInTestsHelpPassesNextToTheCounter() async throws {
    let help = try await Lunar.run(["help", "test"])
    let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex { $0.contains(#"local test = require "lunar.test""#) }, "\(help)")
    let indent = lines[start].prefix { $0 == " " }.count
    let sample = lines[start...].prefix { $0.isEmpty || $0.prefix { $0 == " " }.count >= indent }
      .map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let counter = folder.appendingPathComponent("counter")
    try FileManager.default.copyItem(at: Lunar.packageRoot.appendingPathComponent("examples/counter"), to: counter)
    try Data(sample.utf8).write(to: counter.appendingPathComponent("help_test.lua"))

    let tested = try await Lunar.run(["test", "--time-limit", "60", counter.appendingPathComponent("help_test.lua").path])

    #expect(tested.status == 0, "the sample:\n\(sample)\n\(tested)")
  }

  static let commands = ["", "run", "host", "test", "check", "list", "new", "replay"]

  /// The indented lines of a help's overview and discussion (its examples), as written: laid out
  /// wide enough that nothing wraps.
  static func examples(of command: String) async throws -> [String] {
    let wide = try await Lunar.run(
      (command.isEmpty ? [] : [command]) + ["--help"], environment: ["COLUMNS": "1000", "NO_COLOR": "1"])
    return wide.lines.prefix { !$0.hasPrefix("USAGE:") }.filter { $0.hasPrefix("  ") }
  }

  @Test(arguments: commands)
  func everyExampleInTheHelpIsWholeAtEightyColumns(_ command: String) async throws {
    let examples = try await Self.examples(of: command)
    let output = try await Lunar.run(
      (command.isEmpty ? [] : [command]) + ["--help"], environment: ["COLUMNS": "80", "NO_COLOR": "1"])

    // NB: check and list have no example; any other help without one means its examples were not found.
    #expect(examples.isEmpty == ["check", "list"].contains(command), "lunar \(command) --help: examples \(examples)")
    for example in examples {
      #expect(example.count <= 80, "lunar \(command) --help: an example is wider than 80 columns: '\(example)'")
      #expect(output.lines.contains(example), "lunar \(command) --help at 80 columns breaks '\(example)'\n\(output.stdout)")
    }
  }

  @Test(arguments: commands)
  func aNarrowerTerminalGetsTheHelpLaidOutAtEightyColumns(_ command: String) async throws {
    let arguments = (command.isEmpty ? [] : [command]) + ["--help"]
    let eighty = try await Lunar.run(arguments, environment: ["COLUMNS": "80", "NO_COLOR": "1"])
    let forty = try await Lunar.run(arguments, environment: ["COLUMNS": "40", "NO_COLOR": "1"])

    #expect(forty.stdout == eighty.stdout, "lunar \(command) --help with COLUMNS=40\n\(forty.stdout)")
  }

  @Test func aNarrowTerminalKeepsTheExamplesWhole() async throws {
    guard PTY.available else { return }
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    let eighty = try await Lunar.run(["--help"], environment: ["COLUMNS": "80", "NO_COLOR": "1"])

    let result = try await PTY.run(
      ["--help"], state: state, columns: 50, steps: [.expect("Show help information"), .exit(20)])

    #expect(result.ok, "\(result)")
    let shown = result.transcript.replacingOccurrences(of: "\r\n", with: "\n")
    #expect(shown == eighty.stdout, "\(result)")
    for example in try await Self.examples(of: "") {
      #expect(shown.contains("\n" + example + "\n"), "a 50-column terminal breaks '\(example)'\n\(shown)")
    }
  }

  @Test func versionPrintsTheReleaseAndTheLuaAPI() async throws {
    let output = try await Lunar.run(["--version"])

    #expect(output.status == 0, "\(output)")
    #expect(output.stdout.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+ \(Lua API [0-9]+\)\n$"#, options: .regularExpression) != nil, "\(output)")
  }
}
