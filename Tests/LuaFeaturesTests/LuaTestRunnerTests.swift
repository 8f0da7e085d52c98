import Foundation
import LuaBridge
import LuaFeatures
import Testing

@MainActor
struct LuaTestRunnerTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  @Test func runsEachTestOfAFileAndReportsFailuresWithTheirLine() async {
    var dependencies = LuaDependencies.builtIn
    dependencies.async("numberFact.fetch") { (n: Int) async throws -> String in "\(n) is live" }
    let results = await LuaTestRunner(dependencies: dependencies)
      .run(file: Self.fixtures.appendingPathComponent("counter/counter_test.lua"))
    #expect(results.map(\.name) == ["incrementing", "a fact loads through a mocked client", "the clock is a test clock", "a wrong expectation fails"])
    #expect(results.map(\.passed) == [true, true, true, false])
    #expect(results[3].failures.first?.location == "counter_test.lua:27")
    #expect(results[3].failures.first?.message.contains("A state change does not match expectation") == true)
  }
}
