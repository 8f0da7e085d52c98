import Foundation
import LuaBridge
import LuaFeatures
import Testing

/// The `lunar.test` tools of TCA's test store: dismissal at the root, exhaustivity for part of a
/// test, `assert`, what `skipReceived` skipped, and helpers that report at their caller's line.
@MainActor
struct LuaTestToolsTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/tools")
  static let testFile = folder.appendingPathComponent("tools_test.lua")

  final class Printed {
    var lines: [String] = []
  }

  func run(_ name: String, printed: Printed = Printed()) async throws -> LuaTestResult {
    var runner = LuaTestRunner()
    runner.output = { printed.lines.append($0) }
    return try #require(await runner.run(file: Self.testFile, filter: name).first { $0.name == name })
  }

  func location(of needle: String) throws -> String {
    let source = try String(contentsOf: Self.testFile, encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let index = try #require(lines.firstIndex { $0.contains(needle) })
    return "tools_test.lua:\(index + 1)"
  }

  @Test func aFeatureThatDismissesItselfAtTheRootEndsTheStore() async throws {
    #expect(try await run("a feature that dismisses itself ends the store").failures == [])
  }

  @Test func sendingToADismissedStoreFailsAtTheSend() async throws {
    let result = try await run("sending to a dismissed store fails")
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.location == (try location(of: "-- send after dismissal")))
    #expect(result.failures.first?.message.hasPrefix("Can't send action to dismissed test store.") == true)
  }

  @Test func withExhaustivityOffSkipsOnlyInsideItsFunction() async throws {
    let result = try await run("withExhaustivity off accepts what is not asserted inside it only")
    #expect(result.failures.count == 1, "\(result.failures)")
    #expect(result.failures.first?.location == (try location(of: "-- exhaustive again")))
    #expect(result.failures.first?.message.hasPrefix("State was not expected to change") == true)
  }

  @Test func withExhaustivityOnChecksEverythingInsideItsFunction() async throws {
    let result = try await run("withExhaustivity on inside a non-exhaustive store checks everything")
    #expect(result.failures.count == 1, "\(result.failures)")
    #expect(result.failures.first?.location == (try location(of: "-- exhaustive inside")))
  }

  @Test func showSkippedPrintsWhatWasSkipped() async throws {
    let printed = Printed()
    let result = try await run("showSkipped prints what was skipped", printed: printed)
    #expect(result.failures == [])
    #expect(printed.lines.count == 2, "\(printed.lines)")
    #expect(printed.lines.first?.hasPrefix("A state change was not asserted (skipped by non-exhaustive test store)") == true)
    #expect(printed.lines.last?.hasPrefix("2 received actions were skipped (non-exhaustive test store):") == true)
    #expect(printed.lines.last?.contains("touched") == true)
  }

  @Test func assertChecksTheStateWithoutAnAction() async throws {
    let result = try await run("assert checks the state without an action")
    #expect(result.failures.count == 1, "\(result.failures)")
    #expect(result.failures.first?.location == (try location(of: "-- wrong assert")))
    #expect(result.failures.first?.message.contains("\"wrong\"") == true)
  }

  @Test func skipReceivedReturnsAndPrintsTheSkippedActions() async throws {
    let printed = Printed()
    let result = try await run("skipReceived returns and prints what it skipped", printed: printed)
    #expect(result.failures == [])
    #expect(printed.lines == [
      """
      2 received actions were skipped:
        { type = "edit", text = "touched" }
        { type = "mark" }
      """
    ])
  }

  @Test func aHelpersFailedAssertionIsReportedAtItsCaller() async throws {
    let result = try await run("a helper's failure is reported at its caller")
    #expect(result.failures.count == 1, "\(result.failures)")
    #expect(result.failures.first?.location == (try location(of: "-- helper call")))
  }

  @Test func aHelpersErrorIsReportedAtItsCaller() async throws {
    let result = try await run("a helper's error is reported at its caller")
    #expect(result.failures.count == 1, "\(result.failures)")
    #expect(result.failures.first?.location == (try location(of: "-- erroring helper call")))
    #expect(result.failures.first?.message.contains("the helper gave up") == true)
  }

  @Test func testStoreTakesBothResultsOfRequire() async throws {
    #expect(try await run("test.store takes what require returns").failures == [])
  }

  @Test func aFeatureDeclaringNoActionsSaysItTakesNone() async throws {
    let result = try await run("a feature declaring no actions says so")
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.message.contains(
      #"store:send: unknown action "poke"; Silent declares no actions (`actions = {}`): it takes none"#) == true,
      "\(result.failures)")
  }

  @Test func anEffectLoopsOverAStreamAsTheTestFeedsIt() async throws {
    #expect(try await run("an effect loops over a stream the test feeds").failures == [])
  }

  @Test func cancellingTheEffectStopsTheStreamAndTellsIt() async throws {
    #expect(try await run("cancelling the effect stops the stream and tells it").failures == [])
  }

  @Test func aLuaClientsIteratorStreamsOnTheTestClock() async throws {
    #expect(try await run("a Lua client's iterator streams on the test clock").failures == [])
  }

  @Test func readingAStreamOutsideAnEffectFailsAtTheLoop() async throws {
    let result = try await run("a stream read outside an effect is an error")
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.location == (try location(of: "-- loop in the test")))
    #expect(result.failures.first?.message.contains(
      "a test.stream() is read by an effect: loop over it inside fx.run(function(send) … end)") == true,
      "\(result.failures)")
  }
}
