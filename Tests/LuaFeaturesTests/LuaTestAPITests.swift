import Foundation
import LuaBridge
import LuaFeatures
import Testing

/// `lunar.test`, run by `LuaTestRunner` on fixture files: the three exhaustive rules, the ways out
/// of them, mocks, and failures located in the test file.
@MainActor
struct LuaTestAPITests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/api")
  static let testFile = folder.appendingPathComponent("api_test.lua")

  func results() async -> [String: LuaTestResult] {
    var dependencies = LuaDependencies.builtIn
    dependencies.async("numbers.fetch") { (n: Int) async throws -> String in "live \(n)" }
    let results = await LuaTestRunner(dependencies: dependencies).run(file: Self.testFile)
    return Dictionary(results.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  func location(of needle: String) throws -> String {
    let source = try String(contentsOf: Self.testFile, encoding: .utf8)
    return "api_test.lua:\(try #require(line(of: needle, in: source)))"
  }

  @Test func anUnassertedChangeFailsAtTheSendsLine() async throws {
    let result = try #require(await results()["an unasserted change fails"])
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.location == (try location(of: "-- unasserted change")))
    #expect(result.failures.first?.message.contains("State was not expected to change") == true)
  }

  @Test func anUnreceivedActionFailsAtTheEnd() async throws {
    let result = try #require(await results()["an unreceived action fails at the end"])
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.location?.hasPrefix("api_test.lua:") == true)
    #expect(result.failures.first?.message.contains("increment") == true, "\(result.failures)")
  }

  @Test func anEffectStillRunningFailsAtTheEnd() async throws {
    let result = try #require(await results()["an effect still running fails at the end"])
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.location?.hasPrefix("api_test.lua:") == true)
    #expect(result.failures.first?.message.lowercased().contains("effect") == true)
  }

  @Test func nonExhaustiveStoresPass() async throws {
    let result = try #require(await results()["non-exhaustive stores accept what is not asserted"])
    #expect(result.failures == [])
  }

  @Test func skipReceivedAndSkipInFlightPass() async throws {
    let results = await results()
    #expect(results["skipReceived accepts received actions"]?.failures == [])
    #expect(results["skipInFlight cancels running effects"]?.failures == [])
  }

  @Test func anUnmockedAsyncDependencyFailsTheTest() async throws {
    let result = try #require(await results()["an unmocked async dependency fails"])
    #expect(!result.passed)
    #expect(result.failures.contains { $0.message.contains("deps.numbers.fetch is not mocked in this test") })
  }

  @Test func aMockedAsyncDependencyAnswers() async throws {
    #expect(await results()["a mocked async dependency answers"]?.failures == [])
  }

  @Test func stateReturnsTheCurrentState() async throws {
    #expect(await results()["state() returns the current state"]?.failures == [])
  }

  @Test func receiveMatchesByTypeActionAndPredicate() async throws {
    #expect(await results()["receive by type, by action and by predicate"]?.failures == [])
  }

  @Test func receivingAnotherActionFailsAtTheReceivesLine() async throws {
    let result = try #require(await results()["receiving another action fails"])
    #expect(!result.passed)
    #expect(result.failures.first?.location == (try location(of: "-- wrong receive")))
  }

  @Test func aLuaErrorInATestFailsItWithItsLine() async throws {
    let result = try #require(await results()["a Lua error in a test fails it with its line"])
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.location == (try location(of: "-- test error")))
    #expect(result.failures.first?.message.contains("the test itself broke") == true)
  }

  @Test func aTestFileThatFailsToLoadGivesOneFailingResult() async {
    let results = await LuaTestRunner().run(file: Self.folder.appendingPathComponent("broken_test.lua"))
    #expect(results.count == 1)
    #expect(results.first?.passed == false)
    #expect(results.first?.failures.first?.location?.hasPrefix("broken_test.lua:") == true)
    #expect(results.first?.failures.first?.message.isEmpty == false)
  }
}
