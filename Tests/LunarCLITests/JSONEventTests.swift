import Foundation
import Testing

/// Events are exact JSON: keys are bytes, numbers keep their type, and a value JSON cannot hold is
/// an error event, never a crash (`Fixtures/echo` keeps the last action in its state).
struct JSONEventTests {
  static let echo = Lunar.testsFolder.appendingPathComponent("Fixtures/echo").path

  @Test func keysThatAreOneSwiftStringAreTwoKeysInEvents() async throws {
    let output = try await Lunar.run(["run", Self.echo], input: #"{ type = "n", ["\u{E9}"] = 1, ["e\u{301}"] = 2 }"# + "\n")

    #expect(output.status == 0, "\(output)")
    let action = try #require(output.lines.first { $0.contains(#""event":"action""#) })
    #expect(action == "{\"action\":{\"e\u{301}\":2,\"type\":\"n\",\"\u{E9}\":1},\"event\":\"action\",\"source\":\"input\"}")
  }

  @Test func anActionJSONCannotHoldIsAnInputErrorAndTheRunGoesOn() async throws {
    let output = try await Lunar.run(
      ["run", Self.echo, "--keep-going"], input: #"{ type = "n", ["\xfe"] = 2 }"# + "\n{ type = \"nan\", x = 0/0 }\nnext\n"
    )

    #expect(output.status == 1, "\(output)")
    #expect(output.events.count == output.lines.count, "every line is JSON\n\(output)")
    let errors = output.events.named("error")
    // NB: an action is written as JSON (its event, the recording): one JSON cannot hold is refused
    //     where it enters, before Echo could store it.
    #expect(errors.map { $0.string("kind") } == ["input", "input"], "\(output)")
    #expect(errors.map { $0.string("message") } == [
      #"the action cannot be written as JSON: action: the key "\xFE" is not valid UTF-8 at byte 0 (0xFE); JSON text must be UTF-8"#,
      "the action cannot be written as JSON: action.x: NaN (not a number) is not a JSON number",
    ])
    #expect(output.events.named("action").count == 1, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "the later action ran")
  }

  @Test func whatAScriptPrintsWhileItLoadsIsAPrintEventBeforeReady() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try """
      print("loading")
      local lunar = require "lunar"
      return lunar.feature { name = "Loud", initial = { n = 0 }, reduce = function(state) state.n = state.n + 1 end }
      """.write(to: folder.appendingPathComponent("feature.lua"), atomically: true, encoding: .utf8)

    let output = try await Lunar.run(["run", folder.path], input: "go\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.events.count == output.lines.count, "every line is JSON\n\(output)")
    #expect(Array(output.lines.prefix(2)) == [#"{"event":"print","text":"loading"}"#, #"{"event":"ready","feature":"Loud","state":{"n":0}}"#])
  }

  @Test func integersAndFloatsKeepTheirTypeInEvents() async throws {
    let output = try await Lunar.run(["run", Self.echo], input: "{ type = \"n\", a = 3, b = 3.0, c = 0.1 }\n")

    let action = try #require(output.lines.first { $0.contains(#""event":"action""#) })
    #expect(action == #"{"action":{"a":3,"b":3.0,"c":0.1,"type":"n"},"event":"action","source":"input"}"#)
  }

  @Test func aRecordingKeepsKeysThatAreOneSwiftStringAndReplays() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let recording = folder.appendingPathComponent("session.jsonl").path
    let input = #"{ type = "n", ["\u{E9}"] = 1, ["e\u{301}"] = 2, f = 2.0 }"# + "\nnext\n"
    let recorded = try await Lunar.run(["run", Self.echo, "--record", recording], input: input)
    #expect(recorded.status == 0, "\(recorded)")

    let replayed = try await Lunar.run(["replay", recording, "--json"])
    #expect(replayed.status == 0, "\(replayed)")
    #expect(replayed.events.named("note").last?.string("message") == "replayed 2 actions: same states")
  }

  @Test func anActionThatCannotBeRecordedIsRefusedAndTheRecordingReplays() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let recording = folder.appendingPathComponent("session.jsonl").path
    let recorded = try await Lunar.run(
      ["run", Self.echo, "--record", recording, "--keep-going", "--time-limit", "60"], input: "{ type = \"nan\", x = 0/0 }\nnext\n")
    #expect(recorded.status == 1, "\(recorded)")
    #expect(recorded.events.named("error").map { $0.string("kind") } == ["input"], "\(recorded)")
    let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
    #expect(!lines.contains { $0.contains("unrecorded") }, "\(lines)")

    let replayed = try await Lunar.run(["replay", recording])
    #expect(replayed.status == 0, "\(replayed)")
    #expect(replayed.stdout == "replayed 1 action: same states\n", "\(replayed)")
  }
}

/// A state event carries what changed: applied in order to the ready event's state, the patches
/// give every state the feature went through.
@Suite struct StatePatchEventTests {
  /// A list with every kind of write: fields set and removed, rows added, changed, removed from
  /// the middle and the end, the list emptied and replaced.
  static let rows = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Rows",
      initial = { rows = {}, title = "rows" },
      reduce = function(state, action)
        local t, rows = action.type, state.rows
        if t == "add" then rows[#rows + 1] = { id = action.id, tags = {} }
        elseif t == "tag" then table.insert(rows[action.at].tags, action.tag)
        elseif t == "removeAt" then table.remove(rows, action.at)
        elseif t == "pop" then rows[#rows] = nil
        elseif t == "clear" then state.rows = {}
        elseif t == "replace" then state.rows = { { id = 9, tags = { "x" } } }
        elseif t == "rename" then state.title = action.title
        elseif t == "note" then state.note = action.text
        elseif t == "unnote" then state.note = nil
        elseif t == "sort" then table.sort(rows, function(a, b) return a.id > b.id end)
        end
      end,
    }
    """

  @Test func patchesReplayedOnTheReadyStateGiveTheFullStates() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try Data(Self.rows.utf8).write(to: folder.appendingPathComponent("feature.lua"))
    let input = """
      add id=1
      add id=2
      add id=3
      tag at=2 tag=b
      note text=hi
      sort
      removeAt at=2
      rename title=list
      unnote
      unnote
      pop
      add id=4
      clear
      add id=5
      replace
      tag at=1 tag=y

      """
    let patched = try await Lunar.run(["run", folder.path, "--time-limit", "60"], input: input)
    let full = try await Lunar.run(["run", folder.path, "--full-state", "--time-limit", "60"], input: input)

    let patches = patched.events.named("state")
    #expect(patches.count == 16, "\(patched)")
    #expect(patches.allSatisfy { $0["patch"] != nil && !$0.line.contains(#""state":"#) }, "no event carries the state")
    #expect(StatePatchEventTests.texts(patches) == StatePatchEventTests.texts(full.events.named("state")), "\(patched)")
  }

  @Test func anActionThatChangesNothingHasAnEmptyPatch() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try Data(Self.rows.utf8).write(to: folder.appendingPathComponent("feature.lua"))

    let output = try await Lunar.run(["run", folder.path, "--time-limit", "60"], input: "unnote\n")

    #expect(output.lines.contains(#"{"changed":false,"event":"state","patch":[]}"#), "\(output)")
  }

  /// Each event's state as sorted JSON text.
  static func texts(_ events: [Event]) -> [String] {
    events.map { event in
      (try? JSONSerialization.data(withJSONObject: event.state ?? [:], options: [.sortedKeys]))
        .map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
  }
}
