import Foundation
import LuaBridge
import LuaFeatures
import Testing

/// The mistakes a Lua test catches, and what its failures say: an effect built and not returned,
/// and `store:receive` failures that name the expected type, list what arrived and advise only
/// options `lunar.test` has.
@MainActor
struct LuaTestMistakesTests {
  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/mistakes/loader_test.lua")

  func result(_ name: String) async throws -> LuaTestResult {
    let results = await LuaTestRunner().run(file: Self.file, filter: name)
    return try #require(results.first { $0.name == name })
  }

  @Test func anEffectBuiltAndNotReturnedFailsTheTestAtItsLine() async throws {
    let result = try await result("a dropped effect fails the test")
    #expect(result.failures == [
      LuaTestFailure(
        message: "an effect (fx.run) was built but not returned, so it never runs: `return` it from the reducer, or combine several with fx.merge(…)",
        location: "loader.lua:12")
    ])
  }

  @Test func anActionJSONCannotHoldIsRefusedAtTheSendAsEveryEntryRefusesIt() async throws {
    let result = try await result("an action JSON cannot hold is refused at the send")
    #expect(result.failures == [
      LuaTestFailure(
        message: "loader_test.lua:36: store:send: the action cannot be written as JSON: action.ratio: NaN (not a number) is not a JSON number",
        location: "loader_test.lua:36")
    ])
  }

  @Test func receiveNamesTheExpectedTypeAndWhatArrived() async throws {
    let result = try await result("receive names the expected type and what arrived")
    #expect(result.failures.first?.location == "loader_test.lua:12")
    #expect(result.failures.first?.message == """
      Expected to receive an action of type "loaded", but received another action.

        Arrived, not yet received:
          { type = "loadedd", items = 3 }

        Closest (Expected: −, Arrived: +):
          − type = "loaded"
          + type = "loadedd"
      """)
  }

  @Test func receiveOfAnActionDiffsAgainstTheClosest() async throws {
    let result = try await result("receive of an action shows the closest")
    let message = try #require(result.failures.first?.message)
    #expect(message.hasPrefix("""
      Expected to receive { type = "loaded", items = 3 }, but received another action.

        Arrived, not yet received:
          { type = "loadedd", items = 3 }

        Closest (Expected: −, Arrived: +):
          \u{2007} {
          −   type = "loaded",
          +   type = "loadedd",
          \u{2007}   items = 3,
          \u{2007} }
      """), "\(message)")
  }

  @Test func receiveWithNothingRunningFailsAtOnce() async throws {
    let result = try await result("receive with nothing running fails at once")
    #expect(result.failures.map(\.message) == [
      """
      Expected to receive an action of type "loaded", but received none.

      No effect is running, so nothing can be received.
      """
    ])
    // NB: the store would wait up to an hour; failing at once means far less, even on a machine
    //     busy enough to delay the test by a minute.
    #expect(result.duration < .seconds(600))
  }

  @Test func receiveWhileAnEffectRunsAdvisesOptionsThatExist() async throws {
    let result = try await result("receive while an effect waits on the clock advises what exists")
    let message = try #require(result.failures.first?.message)
    #expect(message.contains("test.store(feature, { timeout = seconds })"), "\(message)")
    #expect(message.contains("store:advance(seconds)"), "\(message)")
    #expect(!message.contains("\"timeout\""), "\(message)")
  }
}
