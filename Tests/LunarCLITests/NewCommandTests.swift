import Foundation
import Testing

/// `lunar new NAME`: a feature and a test that pass at once.
@Suite struct NewCommandTests {
  @Test func aNewFeaturesTestsPass() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }

    let created = try await Lunar.run(["new", "timer"], in: folder)
    #expect(created.status == 0, "\(created)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("timer/feature.lua").path))
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("timer/timer_test.lua").path))

    let tested = try await Lunar.run(["test", "--time-limit", "60", "timer"], in: folder)
    #expect(tested.status == 0, "\(tested)")
    #expect(tested.lines.last == "2 passed, 0 failed", "\(tested)")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/luacheck"), "needs luacheck"))
  func luacheckIsCleanOnANewFeatureAndFlagsWhatTheSandboxLacks() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    _ = try await Lunar.run(["new", "clock"], in: folder)
    let feature = folder.appendingPathComponent("clock")

    let clean = try Lunar.runBlocking(
      URL(fileURLWithPath: "/usr/bin/luacheck"), ["--no-color", "."], input: Data(), in: feature, timeout: 60)
    #expect(clean.status == 0, "\(clean)")
    #expect(clean.stdout.contains("0 warnings / 0 errors in 2 files"), "\(clean)")

    let script = feature.appendingPathComponent("feature.lua")
    let text = try String(contentsOf: script, encoding: .utf8)
    try text.replacingOccurrences(of: "state.count = state.count + 1", with: "state.count = os.time()")
      .write(to: script, atomically: true, encoding: .utf8)
    let flagged = try Lunar.runBlocking(
      URL(fileURLWithPath: "/usr/bin/luacheck"), ["--no-color", "."], input: Data(), in: feature, timeout: 60)
    #expect(flagged.status != 0, "\(flagged)")
    #expect(flagged.stdout.contains("accessing undefined variable 'os'"), "\(flagged)")
  }

  @Test func aNewFeatureRunsWithPipedInput() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }

    _ = try await Lunar.run(["new", "my-counter"], in: folder)
    let output = try await Lunar.run(["run", "my-counter", "--view"], input: "increment\nincrement\ndecrement\n", in: folder)

    #expect(output.status == 0, "\(output)")
    #expect(output.events.first?.string("feature") == "MyCounter")
    #expect(output.events.named("state").map { $0.state?["count"] as? Int } == [1, 2, 1])
    #expect(output.events.named("state").last?.string("view") == "count: 1")
  }

  @Test func aNewFeatureDeclaresItsActionsSoAMisspellingIsRefused() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }

    _ = try await Lunar.run(["new", "tally"], in: folder)
    let output = try await Lunar.run(["run", "tally", "--keep-going"], input: "incremnt\nincrement\n", in: folder)

    #expect(output.events.named("error").first?.string("message")?.hasPrefix(#"unknown action "incremnt" (did you mean "increment"?)"#) == true, "\(output)")
    #expect(output.events.named("state").map { $0.state?["count"] as? Int } == [1], "\(output)")
  }

  @Test func newRefusesAnExistingFolder() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("taken"), withIntermediateDirectories: false)
    try Data("keep me".utf8).write(to: folder.appendingPathComponent("taken/feature.lua"))

    let output = try await Lunar.run(["new", "taken"], in: folder)

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains("taken already exists; pick another name"), "\(output)")
    #expect(try String(contentsOf: folder.appendingPathComponent("taken/feature.lua"), encoding: .utf8) == "keep me")
  }

  @Test(arguments: ["two words", "9lives", "_", "-", "a.b", "ünïcode✓", ""])
  func newRefusesABadName(_ name: String) async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }

    let output = try await Lunar.run(["new", name], in: folder)

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains("is not a usable name"), "\(output)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func newWritesALuarcPointingAtTheDefinitions() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }

    let created = try await Lunar.run(["new", "timer"], in: folder)
    #expect(created.status == 0, "\(created)")

    let feature = folder.appendingPathComponent("timer")
    let luarc = try Data(contentsOf: feature.appendingPathComponent(".luarc.json"))
    let settings = try #require(try JSONSerialization.jsonObject(with: luarc) as? [String: Any])
    let library = try #require(settings["workspace.library"] as? [String])
    #expect(settings["runtime.version"] as? String == "Lua 5.4")
    #expect(library == [".lunar/types"])

    // NB: the binary's embedded copies, identical to the files of the source tree.
    let sources = Lunar.packageRoot.appendingPathComponent("Sources/LuaFeatures/Lua/types")
    let expected = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
    let written = try FileManager.default.contentsOfDirectory(atPath: feature.appendingPathComponent(library[0]).path).sorted()
    #expect(written == expected)
    #expect(expected.contains("lunar.d.lua") && expected.contains("test.d.lua"))
    for name in expected {
      let copy = try String(contentsOf: feature.appendingPathComponent(library[0]).appendingPathComponent(name), encoding: .utf8)
      #expect(copy == (try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)), "\(name)")
      #expect(copy.hasPrefix("---@meta"), "\(name)")
    }

    let tested = try await Lunar.run(["test", "--time-limit", "60", "timer"], in: folder)
    #expect(tested.lines.last == "2 passed, 0 failed", "\(tested)")
  }
}
