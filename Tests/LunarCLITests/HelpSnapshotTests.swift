import Foundation
import Testing

/// Every command's `--help`, exactly: what a user reads, at a fixed width of 100 columns.
///
/// Each help is compared with its snapshot in `Snapshots/help/` (`lunar.txt` for `lunar --help`,
/// `run.txt` for `lunar run --help`, …). After changing a help text on purpose, write the
/// snapshots again and read the difference before committing it:
///
/// ```sh
/// LUNAR_UPDATE_SNAPSHOTS=1 swift test --skip-build --filter HelpSnapshotTests
/// git diff Tests/LunarCLITests/Snapshots/help
/// ```
@Suite struct HelpSnapshotTests {
  static let commands = ["", "run", "host", "test", "check", "list", "new", "replay"]

  static let folder = Lunar.testsFolder.appendingPathComponent("Snapshots/help")

  @Test(arguments: commands)
  func helpIsExactlyItsSnapshot(_ command: String) async throws {
    let output = try await Lunar.run(
      (command.isEmpty ? [] : [command]) + ["--help"], environment: ["COLUMNS": "100", "NO_COLOR": "1"])
    let snapshot = Self.folder.appendingPathComponent("\(command.isEmpty ? "lunar" : command).txt")

    #expect(output.status == 0, "\(output)")
    if ProcessInfo.processInfo.environment["LUNAR_UPDATE_SNAPSHOTS"] == "1" {
      try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
      try Data(output.stdout.utf8).write(to: snapshot)
    }
    let expected = try String(contentsOf: snapshot, encoding: .utf8)
    #expect(output.stdout == expected, "lunar \(command) --help differs from \(snapshot.path) (LUNAR_UPDATE_SNAPSHOTS=1 writes it again)\n\(output.stdout)")
  }

  @Test(arguments: commands)
  func helpLinesFitOneHundredColumnsAndEndWithoutSpaces(_ command: String) async throws {
    let output = try await Lunar.run(
      (command.isEmpty ? [] : [command]) + ["--help"], environment: ["COLUMNS": "100", "NO_COLOR": "1"])

    #expect(output.status == 0, "\(output)")
    for line in output.lines {
      #expect(!line.hasSuffix(" "), "lunar \(command) --help: a line ends in a space: '\(line)'")
      #expect(line.count <= 100, "lunar \(command) --help: a line is over 100 columns: '\(line)'")
    }
  }
}
