import Foundation
import Testing

/// At the prompt and in JSON lines, a feature that declares its actions refuses others with the
/// nearest declared name; one that declares none is warned of a type its scripts never compare.
@Suite struct DeclaredActionInputTests {
  @Test func anUndeclaredTypeIsAnInputErrorWithTheNearestName() async throws {
    let output = try await Lunar.run(
      ["run", Lunar.fixture("declared"), "--keep-going"], input: "incremnt\nincrement\n")

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "input")
    #expect(error.string("message") == #"unknown action "incremnt" (did you mean "increment"?); Declared declares add, increment"#)
    #expect(output.events.named("action").map(\.actionType) == ["increment"], "\(output)")
  }

  @Test func aJSONLineWithAMistypedFieldIsRefused() async throws {
    let output = try await Lunar.run(
      ["run", Lunar.fixture("declared"), "--keep-going"], input: #"{"type":"add","amount":"two"}"# + "\n")

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("message") == #"action "add": field "amount" must be an integer, got "two""#)
    #expect(output.events.named("action").isEmpty, "\(output)")
  }

  @Test func withoutDeclarationsATypeNoScriptComparesIsAWarningAndIsSent() async throws {
    let output = try await Lunar.run(["run", Lunar.fixture("faulty")], input: "incremnt\n")

    let warnings = output.events.named("warning").compactMap { $0.string("message") }
    #expect(warnings.count == 1, "\(output)")
    #expect(warnings.first?.hasPrefix(#"no script of Faulty compares action.type with "incremnt" (did you mean "increment"?)"#) == true, "\(output)")
    #expect(output.events.named("action").map(\.actionType) == ["incremnt"], "\(output)")
  }

  @Test func checkNamesEveryLiteralActionTypeNoFeatureDeclares() async throws {
    let output = try await Lunar.run(["check", Lunar.fixture("declared_typo")])

    #expect(output.status == 1, "\(output)")
    #expect(Array(output.lines.dropFirst()) == [
      #"    feature.lua:13: unknown action "incremnt" (did you mean "increment"?); Typo declares increment, later"#,
      #"    typo_test.lua:8: unknown action "incremetn" (did you mean "increment"?); Typo declares increment, later"#,
    ], "\(output)")
  }

  @Test func checkPassesTheExamplesWhoseFeaturesAllDeclareTheirActions() async throws {
    let output = try await Lunar.run(["check", "examples/counter", "examples/todos", "examples/search", "examples/dogs"])

    #expect(output.status == 0, "\(output)")
  }
}
