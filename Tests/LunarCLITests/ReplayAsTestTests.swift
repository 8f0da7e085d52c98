import Foundation
import Testing

/// `lunar replay FILE --as-test`: a recorded session becomes an exhaustive `*_test.lua`.
@Suite struct ReplayAsTestTests {
  /// A copy of an example, where the written test goes.
  struct Example {
    let folder: URL
    let copy: URL

    init(_ name: String) throws {
      try self.init(copying: Lunar.packageRoot.appendingPathComponent("examples/\(name)"))
    }

    init(copying original: URL) throws {
      folder = try makeTemporaryFolder()
      copy = folder.appendingPathComponent(original.lastPathComponent)
      try FileManager.default.copyItem(at: original, to: copy)
    }

    /// Records `input` at `lunar run` on the copy; returns the recording's path.
    func record(_ input: String, as name: String = "session") async throws -> String {
      let file = folder.appendingPathComponent("\(name).jsonl").path
      let run = try await Lunar.run(
        ["run", copy.path, "--record", file, "--time-limit", "60"], input: input,
        environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path])
      #expect(run.status == 0, "\(run)")
      return file
    }

    func remove() { removeTemporaryFolder(folder) }
  }

  @Test func aSessionWithAnEffectBecomesATestThatPasses() async throws {
    let example = try Example("counter")
    defer { example.remove() }
    let recording = try await example.record("increment\nfactTapped\n:wait\ndecrement\n")

    let written = try await Lunar.run(["replay", recording, "--as-test"])
    #expect(written.status == 0, "\(written)")
    #expect(written.stdout.contains("session_test.lua: 3 send(s), 1 receive(s)"), "\(written)")
    let tested = try await Lunar.run(["test", "--time-limit", "60", example.copy.appendingPathComponent("session_test.lua").path, "--time-limit", "60"])

    #expect(tested.status == 0, "\(tested)")
    #expect(tested.lines.last == "1 passed, 0 failed", "\(tested)")
  }

  @Test func theTestAssertsEverySendReceiveAndChange() async throws {
    let example = try Example("counter")
    defer { example.remove() }
    let recording = try await example.record("increment\nfactTapped\n:wait\n")

    let written = try await Lunar.run(["replay", recording, "--as-test", "--output", "-"])

    #expect(written.stdout.contains("""
        store:send({ type = "increment" }, function(state)
          state.count = 1
        end)
      """), "\(written)")
    #expect(written.stdout.contains("""
        store:send({ type = "factTapped" }, function(state)
          state.loading = true
        end)
      """), "\(written)")
    #expect(written.stdout.contains(#"store:receive({ type = "factLoaded", fact = "1 is"#), "\(written)")
    #expect(written.stdout.contains(#"["http.get"] = {"#), "the fact's request is a mock: \(written)")
    #expect(written.stdout.contains(#"clients = { "factClient" }"#), "\(written)")
  }

  @Test func theTestFailsWhenTheFeatureChangesWhatItDoes() async throws {
    let example = try Example("counter")
    defer { example.remove() }
    let recording = try await example.record("increment\nincrement\n")
    _ = try await Lunar.run(["replay", recording, "--as-test"])
    let script = example.copy.appendingPathComponent("feature.lua")
    let source = try String(contentsOf: script, encoding: .utf8)
    try Data(source.replacingOccurrences(of: "state.count = state.count + 1", with: "state.count = state.count + 2").utf8)
      .write(to: script)

    let tested = try await Lunar.run(["test", "--time-limit", "60", example.copy.appendingPathComponent("session_test.lua").path, "--time-limit", "60"])

    #expect(tested.status == 1, "\(tested)")
    #expect(tested.stdout.contains("A state change does not match expectation"), "\(tested)")
  }

  @Test func aDebouncedBackupIsReceivedAfterTheRecordedPause() async throws {
    let example = try Example("todos")
    defer { example.remove() }
    let recording = try await example.record(
      "add title=milk\nadd title=eggs\n{ type = \"todos\", id = 1, action = { type = \"toggle\" } }\n:wait\nfilter filter=done\n")

    let written = try await Lunar.run(["replay", recording, "--as-test"])
    #expect(written.stdout.contains("4 send(s), 2 receive(s)"), "\(written)")
    let tested = try await Lunar.run(["test", "--time-limit", "60", example.copy.appendingPathComponent("session_test.lua").path, "--time-limit", "60"])

    #expect(tested.status == 0, "\(tested)")
  }

  @Test func anExistingTestIsNotReplacedWithoutForce() async throws {
    let example = try Example("counter")
    defer { example.remove() }
    let recording = try await example.record("increment\n", as: "counter")

    let refused = try await Lunar.run(["replay", recording, "--as-test"])

    #expect(refused.status != 0, "\(refused)")
    #expect(refused.stderr.contains("counter_test.lua exists: choose another with --output, or replace it with --force"), "\(refused)")
  }

  @Test func edgeNumbersAndStringsAreWrittenSoTheTestReadsThemBackExactly() async throws {
    // NB: Echo keeps each field of the action and its Lua type: a literal read back as another
    //     value or type (the smallest integer as a float) fails the written test.
    let example = try Example(copying: Lunar.testsFolder.appendingPathComponent("Fixtures/echo"))
    defer { example.remove() }
    let recording = try await example.record(
      #"{ type = "edges", min = math.mininteger, big = 2^63, zero = -0.0, whole = 3.0, tiny = 5e-324, text = "a\0\1\127\r\n\"\\é" }"#
        + "\n")

    let written = try await Lunar.run(["replay", recording, "--as-test", "--output", "-"])
    #expect(written.stdout.contains("min = math.mininteger"), "\(written)")
    let file = example.copy.appendingPathComponent("session_test.lua")
    _ = try await Lunar.run(["replay", recording, "--as-test"])
    let tested = try await Lunar.run(["test", "--time-limit", "60", file.path])

    #expect(tested.status == 0, "\(tested)")
    #expect(tested.lines.last == "1 passed, 0 failed", "\(tested)")
  }
}
