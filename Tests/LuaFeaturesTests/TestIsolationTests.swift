import Foundation
import LuaBridge
import LuaFeatures
import Testing

/// Each `test(…)` of a file starts afresh: globals a reducer set and `math.random`'s draws do not
/// carry over to the next test, whatever the order and whether `--filter` picked it alone.
@MainActor
struct TestIsolationTests {
  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/isolation/isolation_test.lua")

  /// Runs the file (tests whose name contains `filter`) and returns what the feature recorded
  /// through `deps.seen.record(n)`, in order.
  func seen(filter: String? = nil) async -> (values: [Int], results: [LuaTestResult]) {
    let seen = Seen()
    var dependencies = LuaDependencies.builtIn
    dependencies.sync("seen.record") { (n: Int) -> Bool in
      seen.append(n)
      return true
    }
    let results = await LuaTestRunner(dependencies: dependencies).run(file: Self.file, filter: filter)
    return (seen.values, results)
  }

  @Test func aGlobalSetByAReducerStartsUnsetInTheNextTest() async {
    let (values, results) = await seen(filter: "counting")
    #expect(results.flatMap(\.failures) == [])
    #expect(values == [1, 1])
  }

  @Test func mathRandomStartsFromTheSameSeedInEveryTestAndStore() async {
    let (values, results) = await seen(filter: "rolling")
    #expect(results.flatMap(\.failures) == [])
    #expect(values.count == 3)
    #expect(Set(values).count == 1, "each store's first draw: \(values)")
  }

  @Test func aTestGivesTheSameResultsAloneAndAfterTheOthers() async {
    let all = await seen()
    let alone = await seen(filter: "rolling in a second store")
    #expect(Array(all.values.suffix(2)) == alone.values)
  }
}

/// What a feature recorded, from any thread.
private final class Seen: @unchecked Sendable {
  private let lock = NSLock()
  private var _values: [Int] = []
  var values: [Int] { lock.withLock { _values } }
  func append(_ value: Int) { lock.withLock { _values.append(value) } }
}
