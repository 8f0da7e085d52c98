import Foundation
import Testing

/// A reducer that raises: the host reports it and keeps the state as it was.
@Suite struct ReducerErrorTests {
  @Test func aReducerErrorIsAnEventWithKindMessageFileAndLine() async throws {
    let output = try await Lunar.run(["run", Lunar.fixture("faulty")], input: "increment\ncrash\n")

    #expect(output.status == 1, "\(output)")
    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "reducer")
    #expect(error.string("feature") == "Faulty")
    #expect(error.string("message") == "feature.lua:13: attempt to index a nil value (local 'missing')")
    #expect(error.string("file") == "feature.lua")
    #expect(error.int("line") == 13)
    #expect(error.actionType == "crash")
    #expect(error.string("traceback")?.contains("feature.lua:13: in function <feature.lua:7>") == true)
  }

  @Test func theStateAfterAFailedActionIsTheStateBeforeIt() async throws {
    let output = try await Lunar.run(["run", Lunar.fixture("faulty"), "--keep-going"], input: "increment\ncrash\nincrement\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.map { $0.name ?? "?" } == ["ready", "action", "state", "action", "error", "state", "action", "state"])
    let states = output.events.named("state")
    #expect(states.map { $0.state?["count"] as? Int } == [1, 1, 2])
    #expect(states[1]["changed"] as? Bool == false)
    #expect(states[1].state?["total"] == nil)
  }

  @Test func withoutKeepGoingTheRunStopsAtTheReducerError() async throws {
    let output = try await Lunar.run(["run", Lunar.fixture("faulty")], input: "crash\nincrement\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("action").map(\.actionType) == ["crash"])
  }
}
