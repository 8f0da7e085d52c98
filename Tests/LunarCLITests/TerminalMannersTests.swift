import Foundation
import Testing

/// Colours follow `--color` and `NO_COLOR`; long commands show progress at a terminal only.
struct TerminalMannersTests {
  static let escape = "\u{1B}["

  @Test func colorAlwaysColoursEvenInAPipe() async throws {
    let output = try await Lunar.run(["check", "examples/counter", "--color", "always"], input: "")
    #expect(output.stdout.contains(Self.escape), "\(output)")
  }

  @Test func aPipeGetsNoColourByDefault() async throws {
    let output = try await Lunar.run(["check", "examples/counter"], input: "", environment: ["NO_COLOR": ""])
    #expect(!output.stdout.contains(Self.escape), "\(output)")
    #expect(output.status == 0, "\(output)")
  }

  @Test(.enabled(if: Lunar.terminalAvailable, "needs util-linux's script to provide a terminal"))
  func aTerminalGetsColourUnlessNoColorIsSet() async throws {
    let coloured = try await Lunar.runAtTerminal(["check", "examples/counter"], input: "", environment: ["NO_COLOR": ""])
    #expect(coloured.stdout.contains(Self.escape), "\(coloured)")
    let plain = try await Lunar.runAtTerminal(["check", "examples/counter"], input: "", environment: ["NO_COLOR": "1"])
    #expect(!plain.stdout.contains(Self.escape), "\(plain)")
  }

  @Test(.enabled(if: Lunar.terminalAvailable, "needs util-linux's script to provide a terminal"))
  func colorNeverKeepsATerminalPlain() async throws {
    let output = try await Lunar.runAtTerminal(["check", "examples/counter", "--color", "never"], input: "", environment: ["NO_COLOR": ""])
    #expect(!output.stdout.contains(Self.escape), "\(output)")
    #expect(output.stdout.contains("Counter"), "\(output)")
  }

  @Test(.enabled(if: Lunar.terminalAvailable, "needs util-linux's script to provide a terminal"))
  func replayShowsItsProgressAtATerminalWhileItsOutputGoesElsewhere() async throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("session.jsonl").path
    let record = try await Lunar.run(
      ["run", "examples/counter", "--record", recording, "--time-limit", "60"],
      input: String(repeating: "increment\n", count: 40))
    #expect(record.status == 0, "\(record)")

    let output = try await Lunar.runAtTerminal(
      ["replay", recording, "--json", "--time-limit", "60"], input: "",
      standardOutput: folder.appendingPathComponent("events.jsonl").path)
    #expect(output.stdout.contains("replaying 40/40 actions (100%)"), "\(output)")
  }

  @Test func replayIsQuietInAPipe() async throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("session.jsonl").path
    _ = try await Lunar.run(
      ["run", "examples/counter", "--record", recording, "--time-limit", "60"],
      input: String(repeating: "increment\n", count: 40))

    let output = try await Lunar.run(["replay", recording, "--json", "--time-limit", "60"], input: "")
    #expect(output.status == 0, "\(output)")
    #expect(!output.stderr.contains("replaying"), "\(output)")
    #expect(output.stderr.isEmpty, "\(output)")
  }
}
