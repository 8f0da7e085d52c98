import Foundation
import Testing

/// What input can hold of the host: nothing past its line. Over-long lines are skipped, a literal's
/// globals go with it, and the session keeps a bounded history.
@Suite struct InputContainmentTests {
  @Test func aLineLongerThanAnActionMayBeIsSkippedAndTheNextOneServed() async throws {
    let long = Data(repeating: UInt8(ascii: "x"), count: 20 << 20)
    let output = try await Lunar.run(["run", "examples/counter", "--keep-going"], input: long + Data("\nincrement\n".utf8))

    #expect(output.status == 1, "\(output)")
    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "input")
    #expect(error.string("message") == "a line of 20971520 bytes is longer than an input line may be (16 MiB); it was skipped")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1, "\(output)")
  }

  @Test func aGlobalSetByAnInputLineIsGoneAtTheNextLine() async throws {
    let input = """
      { type = (function() leftover = "increment" return leftover end)() }
      { type = tostring(leftover) }

      """
    // NB: a feature that declares no actions, so that the type "nil" is sent (with a warning).
    let output = try await Lunar.run(["run", Lunar.fixture("faulty")], input: input)

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("action").map { $0.actionType } == ["increment", "nil"], "\(output)")
  }

  @Test func memoryParkedByInputLinesIsFreedForTheFeature() async throws {
    // NB: each line keeps 20 MB in a global; kept together, three would not fit in 64 MB.
    let input = (1...3).map { #"{ type = (function() parked\#($0) = ("x"):rep(20e6) return "increment" end)() }"# }
      .joined(separator: "\n") + "\n"
    // NB: a generous time limit: the full suite's parallel processes can make 20 MB take a second.
    let output = try await Lunar.run(["run", "examples/counter", "--memory-limit", "64", "--time-limit", "60"], input: input)

    #expect(output.events.named("error").isEmpty, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 3, "\(output)")
  }

  @Test func historyKeepsTheLatestActionsAndSaysHowManyWereForgotten() async throws {
    let output = try await Lunar.run(
      ["run", "examples/counter", "--history", "2"], input: "increment\ndecrement\nincrement\n:history\n"
    )

    let note = try #require(output.events.named("note").last?.string("message"), "\(output)")
    #expect(note == """
      (1 earlier action(s) forgotten: --history keeps 2)
      2. decrement
      3. increment
      """, "\(output)")
  }

  @Test(arguments: [
    (["--time-limit", "0"], "--time-limit must be a number of seconds above 0 and at most 3600, got 0.0"),
    (["--time-limit", "nan"], "--time-limit must be a number of seconds above 0 and at most 3600, got nan"),
    (["--timeout", "1e300"], "--timeout must be a number of seconds from 0 to 86400, got 1e+300"),
    (["--history=-1"], "--history must be 0 or more, got -1"),
  ])
  func aLimitOutOfRangeIsAUsageError(_ arguments: [String], _ message: String) async throws {
    let output = try await Lunar.run(["run", "examples/counter"] + arguments, input: "")

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains(message), "\(output)")
  }
}
