import Foundation
import Testing

/// The three forms an action line can take, read the way Lua would read them.
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

  @Test func eachFormIsEchoedInItsActionEvent() async throws {
    let output = try await Lunar.run(
      ["run", Lunar.fixture("echo")],
      input: "increment\nadd count=2\n{ type = \"add\", count = 2 }\n"
    )

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("action").map(\.line) == [
      #"{"action":{"type":"increment"},"event":"action","source":"input"}"#,
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
