import Foundation
import Testing

/// What the command line does for tests of multi-screen apps: replays of effects that sleep at
/// once, `lunar check` of one module of a folder, and ids that `--seed` makes the same on every run.
@Suite struct TestToolsCLITests {
  @Test func aReplayOfTwoEffectsSleepingAtOnceKeepsTheirRecordedOrder() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("session.jsonl").path

    let recorded = try await Lunar.run(
      ["run", Lunar.fixture("two_sleeps"), "--record", file, "--time-limit", "60"], input: "start\n")
    #expect(recorded.status == 0, "\(recorded)")
    let replayed = try await Lunar.run(["replay", file, "--time-limit", "60"])

    #expect(replayed.status == 0, "\(replayed)")
    #expect(replayed.stdout.contains("replayed 1 action and 5 from effects: same states"), "\(replayed)")
  }

  @Test func aRecordingOfTwoSleepingEffectsNamesEachCallsPlaceAndTheActionsBeforeItsAnswer() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("session.jsonl")

    _ = try await Lunar.run(
      ["run", Lunar.fixture("two_sleeps"), "--record", file.path, "--time-limit", "60"], input: "start\n")
    let sleeps = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
      .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
      .filter { $0["name"] as? String == "clock.sleep" }

    // Each names its place among the calls, how many actions came before its answer, and its place
    // among the answers.
    #expect(sleeps.compactMap { $0["call"] as? Int }.sorted() == [1, 2, 3, 4, 5])
    #expect(sleeps.compactMap { $0["answer"] as? Int }.sorted() == [1, 2, 3, 4, 5])
    #expect(sleeps.compactMap { $0["after"] as? Int }.allSatisfy { (1...5).contains($0) })
    #expect(sleeps.compactMap { $0["after"] as? Int }.count == 5)
  }

  @Test func checkingOneModuleJudgesOnlyTheTestsOfIt() async throws {
    let list = try await Lunar.run(["check", Lunar.fixture("check_modules") + "/list.lua"])
    #expect(list.status == 0, "\(list)")

    let meeting = try await Lunar.run(["check", Lunar.fixture("check_modules") + "/meeting.lua"])
    #expect(meeting.status == 1, "\(meeting)")
    #expect(Array(meeting.lines.dropFirst()) == [
      #"    meeting_test.lua:7: unknown action "renam" (did you mean "rename"?); Meeting declares rename"#
    ], "\(meeting)")
  }

  @Test func everyFeatureModuleOfTheExamplesPassesCheck() async throws {
    let modules = [
      "examples/counter/feature.lua", "examples/dogs/feature.lua", "examples/dogs/dogs.lua", "examples/dogs/breed.lua",
      "examples/search/feature.lua", "examples/todos/feature.lua", "examples/todos/todo.lua", "examples/todos/edit.lua",
    ]
    let output = try await Lunar.run(["check"] + modules)
    #expect(output.status == 0, "\(output)")
  }

  static func uuids(_ output: Lunar.Output) -> [String] {
    output.stdout.matches(of: /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/).map { String($0.output) }
  }

  @Test func withASeedDepsUUIDGivesTheSameIdsOnEveryRun() async throws {
    let first = try await Lunar.run(["run", Lunar.fixture("uuids"), "--seed", "7", "--json"], input: "make\nmake\n")
    let second = try await Lunar.run(["run", Lunar.fixture("uuids"), "--seed", "7", "--json"], input: "make\nmake\n")
    let other = try await Lunar.run(["run", Lunar.fixture("uuids"), "--seed", "8", "--json"], input: "make\nmake\n")

    #expect(Self.uuids(first).count == 2, "\(first)")
    #expect(Set(Self.uuids(first)).count == 2, "\(first)")
    #expect(Self.uuids(second) == Self.uuids(first))
    #expect(Self.uuids(other).count == 2)
    #expect(Set(Self.uuids(other)).isDisjoint(with: Self.uuids(first)))
  }

  @Test func withoutASeedDepsUUIDGivesNewIdsOnEveryRun() async throws {
    let first = try await Lunar.run(["run", Lunar.fixture("uuids"), "--json"], input: "make\n")
    let second = try await Lunar.run(["run", Lunar.fixture("uuids"), "--json"], input: "make\n")

    #expect(Self.uuids(first).count == 1, "\(first)")
    #expect(Self.uuids(second).count == 1, "\(second)")
    #expect(Self.uuids(first) != Self.uuids(second))
  }
}
