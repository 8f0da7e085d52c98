import Foundation
import Testing

/// What a script stores and what input lines carry, past the host's JSON: a value JSON cannot write
/// is refused when the reducer writes it (so every later event is still written and a client keeps
/// seeing the state), a line that is not UTF-8 is refused rather than repaired, and lines that end
/// with `\r\n` or open with a byte order mark are read as the lines they are.
@Suite struct HostileDataTests {
  static let json = "state is written as JSON (events, recordings, saved files)"
  static let feature = "unwritable_state.lua"

  func line(of marker: String) throws -> Int {
    let source = try String(contentsOfFile: Lunar.hostile(Self.feature), encoding: .utf8)
    let lines = source.components(separatedBy: "\n")
    return try #require(lines.firstIndex { $0.contains(marker) }) + 1
  }

  @Test func aStoredInfinityIsARefusedWriteAndTheNextStateIsStillWritten() async throws {
    let output = try await Lunar.run(["run", Lunar.hostile(Self.feature), "--keep-going"], input: "huge\nincrement\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.map { $0.name ?? "?" } == ["ready", "action", "error", "state", "action", "state"], "\(output)")
    let error = try #require(output.events.named("error").first)
    #expect(error.string("kind") == "reducer")
    let at = try line(of: "refused: infinity")
    #expect(error.string("message") == "\(Self.feature):\(at): cannot store infinity in state (at state.ratio): "
      + "\(Self.json), which has no NaN or infinities")
    let states = output.events.named("state")
    #expect(states.first?["changed"] as? Bool == false)
    #expect(states.last?.state?["count"] as? Int == 1, "\(output)")
    #expect(states.last?.state?["ratio"] == nil)
  }

  @Test func aKeyThatIsNotUTF8IsRefusedInAHostAndThePluginServesOn() async throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("plugins/unwritable")
    try FileManager.default.createDirectory(at: plugin, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: URL(fileURLWithPath: Lunar.hostile(Self.feature)), to: plugin.appendingPathComponent("feature.lua"))
    let input = [#"{"plugin": "unwritable", "action": "binary"}"#, #"{"plugin": "unwritable", "action": "increment"}"#]
    let output = try await Lunar.run(
      ["host", folder.appendingPathComponent("plugins").path], input: input.joined(separator: "\n") + "\n",
      environment: ["XDG_DATA_HOME": folder.path])

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(output.events.named("error").count == 1, "\(output)")
    let at = try line(of: "refused: not UTF-8")
    #expect(error.string("message") == #"feature.lua:\#(at): cannot store the key "\xFF" in state (in state.tags: byte 0 is 0xFF): "#
      + "\(Self.json), whose keys are UTF-8 text")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }

  @Test func aLineThatIsNotUTF8IsRefusedNotRepaired() async throws {
    var input = Data(#"{"type": "increment", "note": "caf"#.utf8)
    input += Data([0xE9]) + Data("\"}\nincrement\n".utf8)
    let output = try await Lunar.run(["run", "examples/counter", "--keep-going"], input: input)

    #expect(output.status == 1, "\(output)")
    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "input")
    #expect(error.string("message") == "a line is not UTF-8 text (byte 34 is 0xE9); input lines are UTF-8, and it was skipped")
    #expect(output.events.named("action").count == 1, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }

  @Test func aHostRefusesALineThatIsNotUTF8AndServesTheNext() async throws {
    let data = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: data) }
    var input = Data(#"{"plugin": "counter", "action": {"type": "increment", "note": ""#.utf8)
    input += Data([0xFF]) + Data("\"}}\n".utf8) + Data(#"{"plugin": "counter", "action": "increment"}"#.utf8 + [0x0A])
    let output = try await Lunar.run(
      ["host", HostCommandTests.plugins.path], input: input, environment: ["XDG_DATA_HOME": data.path])

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "input")
    #expect(error.string("message") == "a line is not UTF-8 text (byte 63 is 0xFF); input lines are UTF-8, and it was skipped")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }

  @Test func linesEndingWithCRLFAfterAByteOrderMarkAreRead() async throws {
    let input = Data([0xEF, 0xBB, 0xBF]) + Data("increment\r\n{\"type\": \"increment\"}\r\n{ type = \"increment\" }\r\n".utf8)
    let output = try await Lunar.run(["run", "examples/counter"], input: input)

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("error").isEmpty, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 3, "\(output)")
  }

  @Test func aHostReadsLinesEndingWithCRLFAfterAByteOrderMark() async throws {
    let data = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: data) }
    let lines = [#"{"plugin": "counter", "action": {"type": "increment"}}"#, #"{"plugin": "counter", "action": "increment"}"#]
    let input = Data([0xEF, 0xBB, 0xBF]) + Data(lines.map { $0 + "\r\n" }.joined().utf8)
    let output = try await Lunar.run(
      ["host", HostCommandTests.plugins.path], input: input, environment: ["XDG_DATA_HOME": data.path])

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("error").isEmpty, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 2, "\(output)")
  }

  // MARK: - Actions are held to the rule state is held to

  @Test func aLuaLiteralActionHoldingNaNIsRefusedAndTheRunGoesOn() async throws {
    let input = "{ type = \"increment\", n = 0/0 }\nincrement\n"
    let output = try await Lunar.run(["run", "examples/counter", "--keep-going"], input: input)

    #expect(output.status == 1, "\(output)")
    #expect(output.events.map { $0.name ?? "?" } == ["ready", "error", "action", "state"], "\(output)")
    let error = try #require(output.events.named("error").first)
    #expect(error.string("kind") == "input")
    #expect(error.string("message") == "the action cannot be written as JSON: action.n: NaN (not a number) is not a JSON number")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }

  @Test func anActionHoldingAnInfinityStopsARunWithoutKeepGoingBeforeItIsReduced() async throws {
    let output = try await Lunar.run(["run", "examples/counter"], input: "increment by={ -math.huge }\nincrement\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.map { $0.name ?? "?" } == ["ready", "error"], "\(output)")
    #expect(output.events.named("error").first?.string("message")
      == "the action cannot be written as JSON: action.by[1]: -infinity is not a JSON number")
  }

  @Test func aHostRefusesAnActionWhoseKeyIsNotUTF8AndServesTheNext() async throws {
    let data = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: data) }
    let lines = [
      #"{"plugin": "counter", "action": "{ type = 'increment', ['\\xFF'] = 1 }"}"#,
      #"{"plugin": "counter", "action": "increment"}"#,
    ]
    let output = try await Lunar.run(
      ["host", HostCommandTests.plugins.path], input: lines.joined(separator: "\n") + "\n",
      environment: ["XDG_DATA_HOME": data.path])

    // NB: an input error makes the exit status 1, once the input has been served.
    #expect(output.status == 1, "\(output)")
    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(output.events.named("error").count == 1, "\(output)")
    #expect(error.string("kind") == "input")
    #expect(error.string("message") == #"the action cannot be written as JSON: action: the key "\xFF" is not valid UTF-8 at byte 0 (0xFF); JSON text must be UTF-8"#)
    #expect(output.events.named("action").count == 1, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }
}
