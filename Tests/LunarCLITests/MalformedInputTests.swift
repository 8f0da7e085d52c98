import Foundation
import Testing

/// Lines that are not actions: each is an error event, never a crash.
@Suite struct MalformedInputTests {
  static let malformed: [(name: String, line: Data, message: String)] = [
    ("an unfinished table", Data("{ type = ".utf8), "input:1: unexpected symbol near <eof>"),
    ("a table without a type", Data("{ 1, 2 }".utf8), #"an action is a table with a string `type`, like { type = "increment" }"#),
    ("a number", Data("123abc".utf8), "an action starts with its type (a name like increment), got '123abc'"),
    ("a field without a key", Data("add =x".utf8), "expected key=value after the type, got '=x'"),
    ("an unterminated quote", Data(#"add note="two words"#.utf8), "unterminated string"),
    ("a 100 KB line", Data(("{ type = \"big\", " + String(repeating: "x", count: 100_000)).utf8), ""),
    ("binary garbage", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }.filter { $0 != 10 }), ""),
    ("two tables", Data(#"{ type = "a" }, { type = "b" }"#.utf8), "one action per line: this line holds 2 values"),
  ]

  @Test(arguments: 0..<malformed.count)
  func aMalformedLineIsAnErrorEventAndStopsTheRunWithExit1(_ index: Int) async throws {
    let (name, line, message) = Self.malformed[index]
    let output = try await Lunar.run(["run", "examples/counter", "--time-limit", "60"], input: line + Data("\nincrement\n".utf8))

    #expect(output.status == 1, "\(name): \(output)")
    let events = output.events
    #expect(events.count == output.lines.count, "\(name): every line is JSON\n\(output)")
    #expect(events.map { $0.name ?? "?" } == ["ready", "error"], "\(name): \(output)")
    let error = try #require(events.last)
    #expect(error.string("kind") == "input", "\(name)")
    if !message.isEmpty { #expect(error.string("message") == message, "\(name)") }
    #expect(output.stderr.isEmpty, "\(name): \(output)")
  }

  @Test func withKeepGoingEveryLaterLineStillRunsAndTheExitCodeIs1() async throws {
    var input = Data()
    for entry in Self.malformed {
      input += entry.line + Data("\nincrement\n".utf8)
    }
    let output = try await Lunar.run(["run", "examples/counter", "--keep-going"], input: input)

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").count == Self.malformed.count, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == Self.malformed.count, "\(output)")
  }

  @Test func aLongMalformedLineIsShortenedInItsErrorEvent() async throws {
    let line = "{ type = \"big\", " + String(repeating: "x", count: 100_000)
    let output = try await Lunar.run(["run", "examples/counter"], input: line + "\n")

    let error = try #require(output.events.named("error").first, "\(output)")
    let echoed = try #require(error.string("input"))
    #expect(echoed.count < 300)
    #expect(echoed.hasPrefix("{ type = \"big\", xxx"))
    #expect(echoed.hasSuffix("… (100016 characters)"))
  }

  @Test func anUnknownColonCommandIsAnInputError() async throws {
    let output = try await Lunar.run(["run", "examples/counter"], input: ":bogus\nincrement\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").first?.string("message") == "unknown command :bogus (try :help)")
    #expect(output.events.named("action").isEmpty)
  }

  @Test func aTableLiteralThatLoopsForeverRunsOutOfItsBudget() async throws {
    let output = try await Lunar.run(
      ["run", "examples/counter", "--keep-going", "--time-limit", "60"],
      input: "{ type = (function() while true do end end)() }\nincrement\n"
    )

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").first?.string("message")?.contains("instruction limit exceeded") == true, "\(output)")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1)
  }

  @Test func aTableLiteralCannotReachTheSystem() async throws {
    let output = try await Lunar.run(["run", "examples/counter"], input: "{ type = os.exit(3) }\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").first?.string("message") == "input:1: attempt to call a nil value (field 'exit')")
  }
}
