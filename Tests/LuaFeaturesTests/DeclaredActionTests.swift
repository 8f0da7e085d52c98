import Foundation
import LuaBridge
import LuaFeatures
import Testing

/// A feature that declares its actions (`actions = { add = { title = "string" } }`) refuses
/// others in tests, from effects and through ``LuaFeature/problem(with:)``, with the nearest
/// declared name; a composed feature checks a child's action against the child.
@MainActor
struct DeclaredActionTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/declared")

  func failures(_ name: String) async throws -> [LuaTestFailure] {
    let results = await LuaTestRunner().run(file: Self.folder.appendingPathComponent("declared_test.lua"), filter: name)
    return try #require(results.first { $0.name == name }).failures
  }

  @Test func declaredActionsPass() async throws {
    #expect(try await failures("declared actions pass") == [])
  }

  @Test(arguments: [
    ("an unknown type", #"store:send: unknown action "ad" (did you mean "add"?); Tasks declares add, load, loaded, misspell, misspellLater"#),
    ("an unknown field", #"store:send: action "add" has no field "titel" (did you mean "title"?); its fields are note, title"#),
    ("a field of the wrong type", #"store:send: action "add": field "title" must be a string, got number 3"#),
    ("a missing field", #"store:send: action "add" needs its field "title" (a string)"#),
    ("receiving an unknown type", #"store:receive: unknown action "lodaed" (did you mean "loaded"?); Tasks declares add, load, loaded, misspell, misspellLater"#),
    ("a child's action is checked against the child", #"store:send: in the action for state.rows of List: unknown action "toggel" (did you mean "toggle"?); Row declares toggle"#),
  ])
  func aTestSendingOrReceivingAnUndeclaredActionFailsAtItsLine(_ name: String, _ message: String) async throws {
    let failure = try #require(try await failures(name).first)
    #expect(failure.message.hasSuffix(message), "\(failure)")
    #expect(failure.location?.hasPrefix("declared_test.lua:") == true, "\(failure)")
  }

  @Test func anEffectSendingAnUndeclaredActionIsAnErrorAtTheLineThatBuiltIt() async throws {
    let failures = try await failures("an effect sending an unknown type")
    #expect(failures.first?.location == "tasks.lua:23", "\(failures)")
    #expect(failures.first?.message.contains(#"tasks.lua:23: unknown action "loadd" (did you mean "load"?)"#) == true, "\(failures)")
  }

  @Test func anEffectsSendOfABadFieldIsAnErrorAndTheActionIsNotSent() async throws {
    let failures = try await failures("an effect's send of a bad field")
    #expect(failures.map(\.location) == ["tasks.lua:25"], "\(failures)")
    #expect(failures.first?.message.contains(#"action "loaded": field "titles" must be a table, got "a""#) == true, "\(failures)")
  }

  @Test func aFeatureSaysWhatIsWrongWithAnAction() throws {
    let host = try LuaFeatureHost()
    let tasks = try host.load(FeatureLocation(resolving: Self.folder.appendingPathComponent("tasks.lua").path))
    #expect(tasks.declaresActions)
    #expect(tasks.declaredActionTypes == ["add", "load", "loaded", "misspell", "misspellLater"])
    #expect(tasks.problem(with: ["type": "add", "title": "milk"]) == nil)
    #expect(tasks.problem(with: ["type": "incremnt"])?.hasPrefix(#"unknown action "incremnt""#) == true)
  }

  @Test func aFeatureThatDeclaresNothingAcceptsAnyAction() throws {
    let host = try LuaFeatureHost()
    let counter = try host.load(FeatureLocation(resolving: Self.folder.deletingLastPathComponent().appendingPathComponent("counter/counter.lua").path))
    #expect(!counter.declaresActions)
    #expect(counter.problem(with: ["type": "anything"]) == nil)
  }

  @Test func aMalformedDeclarationFailsToLoadAtItsLine() throws {
    let host = try LuaFeatureHost()
    #expect {
      _ = try host.load(source: """
        local lunar = require "lunar"
        return lunar.feature {
          name = "Bad", initial = {}, actions = { add = { title = "strng" } },
          reduce = function() end,
        }
        """, chunkName: "bad.lua")
    } throws: { error in
      "\(error)".contains(#"feature Bad: actions.add.title: unknown type "strng" (did you mean "string"?)"#)
    }
  }
}
