import Foundation
import Testing

/// `lunar test --watch`: the tests run again as their files are saved, until ctrl-C or ctrl-D.
///
/// Each step waits for the line that ends the previous run ("Watching …", or the note "watching …")
/// before saving the next file: the watcher is set by then, whatever the machine's speed.
@Suite(.serialized)
struct TestWatchTests {
  @Test func savingAFixRunsTheTestsAgainAndTheyPass() async throws {
    let folder = try Self.copyOfMixed()
    defer { try? FileManager.default.removeItem(at: folder) }
    let testFile = folder.appendingPathComponent("mixed_test.lua")
    let conversation = try await Conversation(["test", "--time-limit", "60", folder.path, "--watch"])

    #expect(await conversation.nextLine(containing: "1 passed, 1 failed") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "Watching 2 files for changes") != nil, "\(conversation.transcript)")
    try Self.fixDecrement(in: testFile)

    let header = await conversation.nextLine(containing: "──", timeout: 30)
    #expect(
      header?.range(of: #"^── [0-9]{2}:[0-9]{2}:[0-9]{2} · .*/mixed_test\.lua changed ──$"#, options: .regularExpression) != nil,
      "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "✔ decrement expects the wrong count") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "2 passed, 0 failed") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "Watching 2 files for changes") != nil, "\(conversation.transcript)")
    #expect(conversation.finish() == 0, "\(conversation.transcript)")
  }

  @Test func aFileSavedDuringTheFirstRunRunsTheTestsAgain() async throws {
    let folder = try Self.copyOfMixed()
    defer { try? FileManager.default.removeItem(at: folder) }
    let feature = folder.appendingPathComponent("feature.lua")
    // NB: a file's results print once it has run: the second file keeps the first run going for
    //     two seconds of CPU after the first file's lines, which is when the feature is broken.
    try """
      local test = require "lunar.test"
      local Mixed = require "feature"

      test("increment adds one", function()
        local store = test.store(Mixed)
        store:send({ type = "increment" }, function(state) state.count = 1 end)
      end)
      """.write(to: folder.appendingPathComponent("mixed_test.lua"), atomically: true, encoding: .utf8)
    try """
      local test = require "lunar.test"

      test("takes two seconds", function()
        local start = os.clock()
        while os.clock() - start < 2 do end
      end)
      """.write(to: folder.appendingPathComponent("slow_test.lua"), atomically: true, encoding: .utf8)
    let conversation = try await Conversation(["test", "--time-limit", "60", folder.path, "--watch"])
    #expect(await conversation.nextLine(containing: "✔ increment adds one") != nil, "\(conversation.transcript)")

    let original = try String(contentsOf: feature, encoding: .utf8)
    try original.replacingOccurrences(of: "state.count + 1", with: "state.count + 2").write(to: feature, atomically: false, encoding: .utf8)
    #expect(await conversation.nextLine(containing: "2 passed, 0 failed") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "feature.lua changed ──", timeout: 30) != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "✘ increment adds one") != nil, "\(conversation.transcript)")
    #expect(conversation.finish() == 0, "\(conversation.transcript)")
  }

  @Test func savingABreakFailsWithTheRecapAndWatchingGoesOn() async throws {
    let folder = try Self.copyOfMixed()
    defer { try? FileManager.default.removeItem(at: folder) }
    let feature = folder.appendingPathComponent("feature.lua")
    let original = try String(contentsOf: feature, encoding: .utf8)
    let conversation = try await Conversation(["test", "--time-limit", "60", folder.path, "--watch", "--filter", "increment"])
    #expect(await conversation.nextLine(containing: "1 passed, 0 failed") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "Watching") != nil, "\(conversation.transcript)")

    let wrong = original.replacingOccurrences(of: "state.count + 1", with: "state.count + 2")
    #expect(wrong != original)
    try wrong.write(to: feature, atomically: false, encoding: .utf8)
    #expect(await conversation.nextLine(containing: "feature.lua changed ──", timeout: 30) != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "✘ increment adds one") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "Failed:") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "mixed_test.lua: increment adds one  mixed_test.lua:6") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "0 passed, 1 failed") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "Watching") != nil, "\(conversation.transcript)")

    try (original + "\nthis is not Lua\n").write(to: feature, atomically: false, encoding: .utf8)
    #expect(await conversation.nextLine(containing: "feature.lua changed ──", timeout: 30) != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "✘ (loading mixed_test.lua)") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "feature.lua:16: <eof> expected near 'this'") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "0 passed, 1 failed") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "Watching") != nil, "\(conversation.transcript)")

    try original.write(to: feature, atomically: false, encoding: .utf8)
    #expect(await conversation.nextLine(containing: "feature.lua changed ──", timeout: 30) != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "1 passed, 0 failed") != nil, "\(conversation.transcript)")
    #expect(!conversation.transcript.contains("decrement"), "--filter held in every run\n\(conversation.transcript)")
    #expect(conversation.interrupt() == 0, "\(conversation.transcript)")
  }

  @Test func fixingABrokenModuleTheFeatureNewlyRequiresRunsTheTestsAgain() async throws {
    let folder = try Self.copyOfMixed()
    defer { try? FileManager.default.removeItem(at: folder) }
    let feature = folder.appendingPathComponent("feature.lua")
    let helper = folder.appendingPathComponent("helper.lua")
    try "return {".write(to: helper, atomically: true, encoding: .utf8)
    let conversation = try await Conversation(["test", "--time-limit", "60", folder.path, "--watch", "--filter", "increment"])
    #expect(await conversation.nextLine(containing: "Watching 2 files") != nil, "\(conversation.transcript)")

    let original = try String(contentsOf: feature, encoding: .utf8)
    try ("local helper = require \"helper\"\n" + original).write(to: feature, atomically: false, encoding: .utf8)
    #expect(await conversation.nextLine(containing: "✘ (loading mixed_test.lua)", timeout: 30) != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "Watching 3 files") != nil, "\(conversation.transcript)")

    try "return {}".write(to: helper, atomically: true, encoding: .utf8)
    #expect(await conversation.nextLine(containing: "helper.lua changed ──", timeout: 30) != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "1 passed, 0 failed") != nil, "\(conversation.transcript)")
    #expect(await conversation.nextLine(containing: "Watching 3 files") != nil, "\(conversation.transcript)")
    #expect(conversation.finish() == 0, "\(conversation.transcript)")
  }

  @Test func theFilterHoldsInEveryRunAndRunsAreSeparatedByANote() async throws {
    let folder = try Self.copyOfMixed()
    defer { try? FileManager.default.removeItem(at: folder) }
    let conversation = try await Conversation(["test", "--time-limit", "60", folder.path, "--watch", "--json", "--filter", "decrement"])
    let first = await conversation.next("summary")
    #expect(first?.int("passed") == 0 && first?.int("failed") == 1, "\(conversation.transcript)")
    #expect(await conversation.next("note")?.string("message") == "watching 2 files for changes", "\(conversation.transcript)")

    try Self.fixDecrement(in: folder.appendingPathComponent("mixed_test.lua"))
    let note = await conversation.next("note", timeout: 30)
    #expect(note?.string("message")?.hasSuffix("/mixed_test.lua changed: running the tests again") == true, "\(conversation.transcript)")
    let test = await conversation.next("test")
    #expect(test?.string("name") == "decrement expects the wrong count", "\(conversation.transcript)")
    #expect(test?["passed"] as? Bool == true, "\(conversation.transcript)")
    let second = await conversation.next("summary")
    #expect(second?.int("passed") == 1 && second?.int("failed") == 0, "\(conversation.transcript)")
    #expect(await conversation.next("note")?.string("message") == "watching 2 files for changes", "\(conversation.transcript)")

    try conversation.send("")
    #expect(await conversation.next("note")?.string("message") == "run again: running the tests again", "\(conversation.transcript)")
    #expect(await conversation.next("summary")?.int("passed") == 1, "\(conversation.transcript)")
    #expect(!conversation.transcript.contains("increment adds one"), "\(conversation.transcript)")
    #expect(conversation.finish() == 0, "\(conversation.transcript)")
  }

  @Test func ctrlCAtATerminalQuitsWithExit0() async throws {
    guard PTY.available else { return }
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    let result = try await PTY.run(
      ["test", "--time-limit", "60", Lunar.fixture("mixed"), "--watch"], state: state,
      steps: [
        .expect("Watching 2 files for changes"),
        .send("\r"),
        .expect("· run again ──"),
        .expect("1 passed, 1 failed"),
        .expect("Watching 2 files for changes"),
        .send("\u{03}"),
        .exit(20),
      ])

    #expect(result.ok, "\(result)")
    #expect(result.status == 0, "\(result)")
  }

  @Test func ctrlCInTheMiddleOfARunQuitsAtOnceWithExit0() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try Data("""
      local test = require "lunar.test"
      test("spins", function()
        print("spinning")
        while true do end
      end)
      """.utf8).write(to: folder.appendingPathComponent("spin_test.lua"))
    let conversation = try await Conversation(
      ["test", "--time-limit", "600", "--wall-time-limit", "600", folder.path, "--watch"])

    #expect(await conversation.nextLine(containing: "spinning", timeout: 30) != nil, "\(conversation.transcript)")
    #expect(conversation.interrupt() == 0, "\(conversation.transcript)")
  }

  @Test func withoutTestFilesWatchingDoesNotStart() async throws {
    let output = try await Lunar.run(["test", "--watch", Lunar.fixture("echo")], input: Data())

    #expect(output.status == 1, "\(output)")
    #expect(output.stderr.contains("no *_test.lua files under"), "\(output)")
    #expect(!output.stdout.contains("Watching"), "\(output)")
  }

  /// A copy of the `mixed` fixture (a passing test, a failing one) in a temporary folder.
  static func copyOfMixed() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lunar-test-watch-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.copyItem(at: URL(fileURLWithPath: Lunar.fixture("mixed")), to: folder)
    return folder
  }

  /// Makes the failing test of `mixed` expect what `decrement` does.
  static func fixDecrement(in testFile: URL) throws {
    let text = try String(contentsOf: testFile, encoding: .utf8)
    let fixed = text.replacingOccurrences(of: "state.count = 5", with: "state.count = -1")
    #expect(fixed != text)
    try fixed.write(to: testFile, atomically: true, encoding: .utf8)
  }
}
