import Foundation
import Testing

/// The four forms an action line can take, read the way Lua would read them.
@Suite struct ActionInputTests {
  private func echo(_ line: String) async throws -> (fields: [String: Any], types: [String: String], output: Lunar.Output) {
    let output = try await Lunar.run(["run", Lunar.fixture("echo")], input: line + "\n")
    let state = output.events.named("state").last?.state
    return (
      state?["last"] as? [String: Any] ?? [:],
      state?["types"] as? [String: String] ?? [:],
      output
    )
  }

  @Test func aBareTypeIsAnActionWithOnlyAType() async throws {
    let (fields, types, output) = try await echo("increment")

    #expect(output.status == 0, "\(output)")
    #expect(fields["type"] as? String == "increment")
    #expect(types == ["type": "string"])
  }

  @Test func keyValueFieldsAreReadAsIntegersFloatsBooleansAndStrings() async throws {
    let (fields, types, output) = try await echo(#"add count=2 price=2.5 big=-7 done=true late=false title=milk note="two words" quote="say \"hi\"""#)

    #expect(output.status == 0, "\(output)")
    #expect(types == [
      "type": "string", "count": "integer", "price": "float", "big": "integer", "done": "boolean",
      "late": "boolean", "title": "string", "note": "string", "quote": "string",
    ])
    #expect(fields["count"] as? Int == 2)
    #expect(fields["price"] as? Double == 2.5)
    #expect(fields["big"] as? Int == -7)
    #expect(fields["done"] as? Bool == true)
    #expect(fields["late"] as? Bool == false)
    #expect(fields["title"] as? String == "milk")
    #expect(fields["note"] as? String == "two words")
    #expect(fields["quote"] as? String == #"say "hi""#)
  }

  @Test func aQuotedNumberStaysAString() async throws {
    let (fields, types, output) = try await echo(#"add code="007""#)

    #expect(output.status == 0, "\(output)")
    #expect(types["code"] == "string")
    #expect(fields["code"] as? String == "007")
  }

  @Test func aLuaTableLiteralKeepsNestedTablesAndTypes() async throws {
    let (fields, types, output) = try await echo(#"{ type = "add", n = 3, x = 1.5, ok = true, tags = { "a", "b" }, item = { title = "milk" } }"#)

    #expect(output.status == 0, "\(output)")
    #expect(types == ["type": "string", "n": "integer", "x": "float", "ok": "boolean", "tags": "table", "item": "table"])
    #expect(fields["tags"] as? [String] == ["a", "b"])
    #expect((fields["item"] as? [String: Any])?["title"] as? String == "milk")
  }

  @Test func aJSONObjectLineIsAnActionWithItsTypes() async throws {
    let (fields, types, output) = try await echo(#"{"type": "add", "count": 2, "price": 2.5, "done": true, "tags": ["a", "b"], "item": {"title": "milk"}, "gone": null}"#)

    #expect(output.status == 0, "\(output)")
    #expect(types == ["type": "string", "count": "integer", "price": "float", "done": "boolean", "tags": "table", "item": "table"])
    #expect(fields["tags"] as? [String] == ["a", "b"])
    #expect((fields["item"] as? [String: Any])?["title"] as? String == "milk")
  }

  @Test func aMalformedJSONLineIsReportedByTheJSONReader() async throws {
    let output = try await Lunar.run(["run", Lunar.fixture("echo")], input: #"{"type": "add", "count": }"# + "\n")

    #expect(output.status == 1, "\(output)")
    let message = try #require(output.events.named("error").first?.string("message"), "\(output)")
    #expect(message.hasPrefix("not a JSON object: "), "\(message)")
  }

  @Test func aJSONObjectWithoutATypeIsRefused() async throws {
    let output = try await Lunar.run(["run", Lunar.fixture("echo")], input: #"{"kind": "add"}"# + "\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").first?.string("message") == #"an action is a table with a string `type`, like {"type": "increment"}"#)
  }

  @Test func aKeyValueTableIsReadAsALuaTable() async throws {
    let (fields, types, output) = try await echo(#"todo id=3 action={type="toggle"} tags={ "a", "b } c" } empty={}"#)

    #expect(output.status == 0, "\(output)")
    #expect(types == ["type": "string", "id": "integer", "action": "table", "tags": "table", "empty": "table"])
    #expect((fields["action"] as? [String: Any])?["type"] as? String == "toggle")
    #expect(fields["tags"] as? [String] == ["a", "b } c"])
  }

  @Test func keyValueStringsAndNumbersFollowLuasLiterals() async throws {
    let (fields, types, output) = try await echo(#"add single='milk' tab="a\tb" hex=0x10 negative=-0x10"#)

    #expect(output.status == 0, "\(output)")
    #expect(types == ["type": "string", "single": "string", "tab": "string", "hex": "integer", "negative": "integer"])
    #expect(fields["single"] as? String == "milk")
    #expect(fields["tab"] as? String == "a\tb")
    #expect(fields["hex"] as? Int == 16)
    #expect(fields["negative"] as? Int == -16)
  }

  @Test func aKeyValueTableRunsInTheScratchSandbox() async throws {
    let output = try await Lunar.run(
      ["run", Lunar.fixture("echo"), "--keep-going"],
      input: "add leak={ (function() leaked = 1 return 1 end)() }\nadd x={ leaked == nil }\nadd y={ os.exit() }\n"
    )

    #expect(output.status == 1, "\(output)")
    let states = output.events.named("state").compactMap { $0.state?["last"] as? [String: Any] }
    #expect(states.count == 2, "\(output)")
    #expect(states.last?["x"] as? [Bool] == [true], "a global set by one line is gone at the next\n\(output)")
    let error = try #require(output.events.named("error").first?.string("message"), "\(output)")
    #expect(error.contains("attempt to call a nil value (field 'exit')"), "\(error)")
  }

  @Test func aKeyValueTableThatLoopsForeverIsStoppedByTheLimits() async throws {
    let output = try await Lunar.run(
      ["run", Lunar.fixture("echo"), "--keep-going", "--instruction-limit", "1000000", "--time-limit", "60"],
      input: "add x={ (function() while true do end end)() }\nincrement\n"
    )

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").map { $0.string("message") } == ["input:1: instruction limit exceeded (1000000 instructions per call)"], "\(output)")
    #expect(output.events.named("action").map(\.actionType) == ["increment"], "\(output)")
  }

  @Test func aKeyValueBraceThatIsNotATableIsRefused() async throws {
    let output = try await Lunar.run(["run", Lunar.fixture("echo")], input: "add x={}==1\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").first?.string("message") == "x={}==1 is not a table", "\(output)")
  }

  @Test func eachFormIsEchoedInItsActionEvent() async throws {
    let output = try await Lunar.run(
      ["run", Lunar.fixture("echo")],
      input: "increment\nadd count=2\n{ type = \"add\", count = 2 }\n{\"type\": \"add\", \"count\": 2}\n"
    )

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("action").map(\.line) == [
      #"{"action":{"type":"increment"},"event":"action","source":"input"}"#,
      #"{"action":{"count":2,"type":"add"},"event":"action","source":"input"}"#,
      #"{"action":{"count":2,"type":"add"},"event":"action","source":"input"}"#,
      #"{"action":{"count":2,"type":"add"},"event":"action","source":"input"}"#,
    ])
  }
}

extension Lunar {
  /// The path of a fixture feature folder under `Tests/LunarCLITests/Fixtures/`.
  static func fixture(_ name: String) -> String {
    testsFolder.appendingPathComponent("Fixtures").appendingPathComponent(name).path
  }

  /// The path of a script of the hostile corpus under `Tests/LunarCLITests/Hostile/`.
  static func hostile(_ name: String) -> String {
    testsFolder.appendingPathComponent("Hostile").appendingPathComponent(name).path
  }
}
