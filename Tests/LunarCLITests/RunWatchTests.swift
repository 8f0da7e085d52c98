import Foundation
import Testing

/// `lunar run --watch`: the feature's script rewritten while the process runs.
@Suite(.serialized)
struct RunWatchTests {
  @Test func aRewrittenScriptReloadsWithTheStateKeptAndABrokenOneIsReported() async throws {
    let folder = try Self.copyOfCounter()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("feature.lua")
    let original = try String(contentsOf: script, encoding: .utf8)
    let conversation = try await Conversation(["run", folder.path, "--watch", "--json"])

    #expect(await conversation.next("ready") != nil)
    for expected in 1...2 {
      try conversation.send("increment")
      #expect(await conversation.next("state")?.state?["count"] as? Int == expected)
    }

    let faster = original.replacingOccurrences(of: "state.count = state.count + 1", with: "state.count = state.count + 10")
    #expect(faster != original)
    try faster.write(to: script, atomically: false, encoding: .utf8)
    let reload = await conversation.next("reload", timeout: 20)
    #expect(reload?["ok"] as? Bool == true, "\(String(describing: reload))")
    #expect(reload?["files"] as? [String] == ["feature.lua"])
    #expect(reload?["ms"] is Double || reload?["ms"] is Int)
    try conversation.send("increment")
    #expect(await conversation.next("state")?.state?["count"] as? Int == 12)

    try (faster + "\nthis is not Lua\n").write(to: script, atomically: false, encoding: .utf8)
    let failure = await conversation.next("reload", timeout: 20)
    #expect(failure?["ok"] as? Bool == false)
    #expect(failure?["file"] as? String == "feature.lua")
    #expect(failure?["line"] as? Int == faster.split(separator: "\n", omittingEmptySubsequences: false).count + 1)
    #expect((failure?["message"] as? String)?.isEmpty == false)
    try conversation.send("increment")
    #expect(await conversation.next("state")?.state?["count"] as? Int == 22)

    #expect(conversation.finish() == 0)
  }

  @Test func aScriptBrokenAtStartIsWaitedForAndServesOnceFixed() async throws {
    let folder = try Self.copyOfCounter()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("feature.lua")
    let original = try String(contentsOf: script, encoding: .utf8)
    try (original + "\nthis is not Lua\n").write(to: script, atomically: false, encoding: .utf8)
    let conversation = try await Conversation(["run", folder.path, "--watch", "--json"])

    let error = await conversation.next("error")
    #expect(error?.string("kind") == "load", "\(String(describing: error))")
    #expect(error?.string("file") == "feature.lua")
    let note = await conversation.next("note")
    #expect(note?.string("message")?.hasPrefix("waiting for a fix: saving feature.lua") == true, "\(String(describing: note))")

    try original.write(to: script, atomically: false, encoding: .utf8)
    #expect(await conversation.next("ready", timeout: 20) != nil)
    try conversation.send("increment")
    #expect(await conversation.next("state")?.state?["count"] as? Int == 1)
    #expect(conversation.finish() == 0)
  }

  @Test func aReloadWhoseInitialGainedOrLostFieldsWarnsWithTheMigrateHint() async throws {
    let folder = try Self.copyOfCounter()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("feature.lua")
    let original = try String(contentsOf: script, encoding: .utf8)
    let conversation = try await Conversation(["run", folder.path, "--watch", "--json"])
    #expect(await conversation.next("ready") != nil)

    let changed = original.replacingOccurrences(
      of: "initial = { count = 0, fact = nil, loading = false, timerRunning = false }",
      with: "initial = { count = 0, fact = nil, loading = false, laps = { best = 0 } }")
    #expect(changed != original)
    try changed.write(to: script, atomically: false, encoding: .utf8)
    #expect(await conversation.next("reload", timeout: 20)?["ok"] as? Bool == true)
    let warning = await conversation.next("warning")
    #expect(warning?.string("message") == """
      initial gained laps, which the kept state lacks; initial lost timerRunning, which the kept state still has \
      (write migrate(state) to adapt the kept state, or type :reset to start over)
      """, "\(String(describing: warning))")
    try conversation.send(":reset")
    #expect((await conversation.next("state")?.state?["laps"] as? [String: Any])?["best"] as? Int == 0)
    #expect(conversation.finish() == 0)
  }

  /// A copy of `examples/counter` in a temporary folder.
  static func copyOfCounter() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lunar-watch-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.copyItem(at: Lunar.packageRoot.appendingPathComponent("examples/counter"), to: folder)
    return folder
  }
}
