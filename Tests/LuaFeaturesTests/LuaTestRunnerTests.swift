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

  @Test func theFilesReadAreTheTestFileAndWhatItRequiredButTheHostModules() async {
    let folder = Self.fixtures.appendingPathComponent("counter").resolvingSymlinksInPath()
    let (results, files) = await LuaTestRunner()
      .runReadingFiles(file: folder.appendingPathComponent("counter_test.lua"), filter: "incrementing")

    #expect(results.map(\.name) == ["incrementing"])
    #expect(files.map(\.lastPathComponent) == ["counter_test.lua", "counter.lua"])
    #expect(files.allSatisfy { $0.deletingLastPathComponent().path == folder.path }, "\(files)")
  }

  @Test func aFileThatDoesNotLoadHasReadNothing() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-reads-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("broken_test.lua")
    try Data("this is not Lua".utf8).write(to: file)

    let (results, files) = await LuaTestRunner().runReadingFiles(file: file)

    #expect(results.map(\.name) == ["(loading broken_test.lua)"])
    #expect(files.isEmpty)
  }
}
