import Foundation
import Testing

/// Scripts and input lines that would keep a host busy for good: each is stopped by the time limit
/// or the instruction budget, or refused, with a clear error; the state stays as it was and the
/// host serves the next action.
@Suite struct RunawayTests {
  static let script = Lunar.hostile("runaway.lua")

  /// NB: only the tests about time keep the short limit: on a loaded machine a legitimate step can
  /// take half a second.
  func run(_ input: String, timeLimit: String = "0.5") async throws -> Lunar.Output {
    try await Lunar.run(["run", Self.script, "--keep-going", "--time-limit", timeLimit, "--instruction-limit", "0"], input: input)
  }

  @Test func aMessageHandlerThatLoopsInAReducerRunsOutOfTime() async throws {
    let output = try await run("handler\nincrement\n")

    #expect(output.status == 1, "\(output)")
    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "reducer")
    #expect(error.string("message")?.hasPrefix("ran past its time limit (an endless loop, or a slow library call?): runaway.lua:") == true, "\(output)")
    #expect(error.string("message")?.hasSuffix("time limit exceeded (0.5 s per call)") == true, "\(output)")
    #expect(error.string("file") == "runaway.lua", "\(output)")
    #expect(output.events.named("state").map { $0.state?["count"] as? Int } == [0, 1], "state unchanged, then served\n\(output)")
  }

  @Test func aMessageHandlerThatLoopsRunsOutOfTheInstructionBudgetToo() async throws {
    let output = try await Lunar.run(
      ["run", Self.script, "--keep-going", "--time-limit", "60", "--instruction-limit", "1000000"], input: "handler\nincrement\n"
    )

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("message")?.hasSuffix("instruction limit exceeded (1000000 instructions per call)") == true, "\(output)")
    #expect(output.events.named("state").map { $0.state?["count"] as? Int } == [0, 1], "\(output)")
  }

  @Test func aMessageHandlerThatLoopsInAnEffectRunsOutOfTime() async throws {
    let output = try await run("effectHandler\n:wait\nincrement\n")

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "effect", "\(output)")
    #expect(error.string("message")?.contains("time limit exceeded (0.5 s per call)") == true, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }

  @Test func anInputLineWhoseHandlerLoopsRunsOutOfTime() async throws {
    let line = #"{ type = (function() local function spin() while true do end end xpcall(spin, spin) return "x" end)() }"#
    let output = try await run(line + "\nincrement\n")

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "input")
    #expect(error.string("message")?.hasPrefix("input:1: CPU time limit exceeded (0.5 s per call)") == true, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }

  @Test func aForEachArrayWithPlantedMetamethodsIsRefusedAndRoutingGoesOn() async throws {
    let output = try await run("plant\n{ type = \"rows\", id = 1, action = { type = \"touch\" } }\nincrement\n", timeLimit: "60")

    #expect(output.events.named("error").map { $0.string("message") } == [
      #"runaway.lua:31: state holds plain tables only: the table stored at "rows" (or one inside it) has a metatable; store its data instead"#
    ], "\(output)")
    let last = try #require(output.events.named("state").last?.state, "\(output)")
    #expect(last["count"] as? Int == 1, "\(output)")
    #expect((last["rows"] as? [[String: Any]])?.first?["n"] as? Int == 1, "\(output)")
  }

  @Test(arguments: [
    ("debounce", "fx.debounce"), ("throttle", "fx.throttle"),
  ])
  func aDurationBeyondAnyClockIsRefused(_ action: String, _ effect: String) async throws {
    let output = try await run("\(action)\nincrement\n", timeLimit: "60")

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("message")?.contains("a duration must be a finite number of seconds from 0 to 1e9 (about 31 years), got ") == true, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }

  @Test func aSleepBeyondAnyClockIsRefused() async throws {
    let output = try await run("sleep\n:wait\nincrement\n", timeLimit: "60")

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "effect", "\(output)")
    #expect(error.string("message")?.contains("deps.clock.sleep cannot wait that long: a duration must be a finite number of seconds from 0 to 1e9 (about 31 years), got 1e+300") == true, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }
}
