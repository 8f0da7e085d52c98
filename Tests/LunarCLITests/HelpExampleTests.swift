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

  @Test func versionPrintsTheReleaseAndTheLuaAPI() async throws {
    let output = try await Lunar.run(["--version"])

    #expect(output.status == 0, "\(output)")
    #expect(output.stdout.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+ \(Lua API [0-9]+\)\n$"#, options: .regularExpression) != nil, "\(output)")
  }
}
