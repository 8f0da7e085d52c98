import Foundation
import Testing

/// `lunar run --record FILE` and `lunar replay FILE`.
@Suite struct RecordReplayTests {
  static let session = "increment\nfactTapped\ndecrement\nincrement\nfactTapped\n"

  @Test func aReplayReproducesTheRecordedStates() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("session.jsonl").path

    let recorded = try await Lunar.run(["run", "examples/counter", "--record", file, "--time-limit", "60"], input: Self.session)
    #expect(recorded.status == 0, "\(recorded)")
    let replayed = try await Lunar.run(["replay", file, "--json"])

    #expect(replayed.status == 0, "\(replayed)")
    #expect(replayed.events.last?.string("message") == "replayed 5 actions and 2 from effects: same states", "\(replayed)")
    #expect(Self.states(replayed) == Self.states(recorded), "\(replayed)")
  }

  @Test func aReplayAnswersDependenciesFromTheRecording() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("session.jsonl")

    _ = try await Lunar.run(["run", "examples/counter", "--record", file.path, "--time-limit", "60"], input: "factTapped\n")
    let text = try String(contentsOf: file, encoding: .utf8)
    let edited = text.replacingOccurrences(of: "0 is the additive identity.", with: "0 is a recorded fact.")
    try Data(edited.utf8).write(to: file)
    let replayed = try await Lunar.run(["replay", file.path, "--json"])

    // The recorded states name the edited fact too, so only the dependency result changed.
    #expect(replayed.status == 0, "\(replayed)")
    let loaded = replayed.events.named("action").first { $0.actionType == "factLoaded" }
    #expect((loaded?["action"] as? [String: Any])?["fact"] as? String == "0 is a recorded fact.", "\(replayed)")
  }

  @Test func aTamperedRecordingDivergesWithExit1AndADiff() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("session.jsonl")

    _ = try await Lunar.run(["run", "examples/counter", "--record", file.path, "--time-limit", "60"], input: "increment\nincrement\n")
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    let tampered = lines.map { line in
      line.contains(#""kind":"state""#) && line.contains(#""count":2"#)
        ? line.replacingOccurrences(of: #""count":2"#, with: #""count":7"#) : line
    }
    #expect(tampered != lines)
    try Data((tampered.joined(separator: "\n") + "\n").utf8).write(to: file)
    let replayed = try await Lunar.run(["replay", file.path, "--time-limit", "60"])

    #expect(replayed.status == 1, "\(replayed)")
    #expect(replayed.stdout.contains("replay diverged at action 2"), "\(replayed)")
    #expect(replayed.stdout.contains("-   count = 7,\n+   count = 2,\n"), "\(replayed)")
  }

  @Test func aFileThatIsNotARecordingIsAClearError() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("notes.txt")
    try Data("hello\n".utf8).write(to: file)

    let replayed = try await Lunar.run(["replay", file.path, "--time-limit", "60"])

    #expect(replayed.status != 0)
    #expect(replayed.stderr.contains("\(file.path):1: not a line of a recording"), "\(replayed)")
  }

  @Test func aReplayStartsFromTheRecordedSharedValuesAndNeverReadsTheFile() async throws {
    let data = try makeTemporaryFolder()
    defer { removeTemporaryFolder(data) }
    let file = data.appendingPathComponent("session.jsonl").path
    let environment = ["XDG_DATA_HOME": data.path]
    let todos = try Lunar.featureDataFolder(for: Lunar.packageRoot.appendingPathComponent("examples/todos"), in: data)
      .appendingPathComponent("shared/todos.json")

    // The session saves its list; the next one starts from it, and saves a longer one.
    _ = try await Lunar.run(["run", "examples/todos", "--timeout", "0", "--time-limit", "60"], input: "add title=milk\n", environment: environment)
    let recorded = try await Lunar.run(
      ["run", "examples/todos", "--record", file, "--time-limit", "60", "--timeout", "0"], input: "add title=eggs\n", environment: environment)
    #expect(recorded.status == 0, "\(recorded)")
    try Data("[]".utf8).write(to: todos)
    let replayed = try await Lunar.run(["replay", file, "--time-limit", "60"], environment: environment)

    #expect(replayed.status == 0, "\(replayed)")
    #expect(replayed.stdout == "replayed 1 action: same states\n", "\(replayed)")
    #expect(try String(contentsOf: todos, encoding: .utf8) == "[]", "the replay wrote the user's file")
  }

  @Test func anEffectStillRunningWhenTheSessionEndedReplaysWithoutError() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("session.jsonl").path

    // The timer sleeps a second between ticks: it ticks once, and is stopped in its second sleep.
    let recorded = try await Lunar.run(
      ["run", "examples/counter", "--record", file, "--time-limit", "60", "--timeout", "1.5"], input: "toggleTimer\n")
    #expect(recorded.status == 0, "\(recorded)")
    let replayed = try await Lunar.run(["replay", file, "--time-limit", "60"])

    #expect(replayed.status == 0, "\(replayed)")
    #expect(replayed.stderr.isEmpty, "\(replayed)")
  }

  @Test func aReplayPrintsOneLineAndNoBanner() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("session.jsonl").path

    _ = try await Lunar.run(["run", "examples/counter", "--record", file, "--time-limit", "60"], input: "increment\nfactTapped\n:wait\n")
    let replayed = try await Lunar.run(["replay", file, "--time-limit", "60"])

    #expect(replayed.status == 0, "\(replayed)")
    #expect(replayed.stdout == "replayed 2 actions and 1 from effects: same states\n", "\(replayed)")
  }

  @Test func anEffectThatSendsAnotherActionIsADivergenceWithADiff() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("session.jsonl")

    _ = try await Lunar.run(["run", "examples/counter", "--record", file.path, "--time-limit", "60"], input: "factTapped\n:wait\n")
    let text = try String(contentsOf: file, encoding: .utf8)
    let tampered = text.split(separator: "\n").map { line in
      line.contains(#""kind":"effectAction""#) ? line.replacingOccurrences(of: "factLoaded", with: "factFailed") : String(line)
    }.joined(separator: "\n")
    try Data(tampered.utf8).write(to: file)
    let replayed = try await Lunar.run(["replay", file.path, "--time-limit", "60"])

    #expect(replayed.status == 1, "\(replayed)")
    #expect(replayed.stdout.contains("replay diverged at action 2: the recording has"), "\(replayed)")
    #expect(replayed.stdout.contains(#"-   type = "factFailed","# + "\n" + #"+   type = "factLoaded","#), "\(replayed)")
  }

  /// The `state` objects of a run's events, as JSON text.
  static func states(_ output: Lunar.Output) -> [String] {
    output.events.filter { $0.name == "state" || $0.name == "ready" }.compactMap { event in
      (try? JSONSerialization.data(withJSONObject: event.state ?? [:], options: [.sortedKeys]))
        .map { String(decoding: $0, as: UTF8.self) }
    }
  }
}
