import Foundation
import Testing

/// `lunar host --watch`: plugin folders added, changed and removed while the host runs.
@Suite(.serialized)
struct HostWatchTests {
  @Test func aWatchedHostLoadsReloadsAndUnloadsPluginFolders() async throws {
    let folder = try makeTemporaryFolder().resolvingSymlinksInPath()
    defer { try? FileManager.default.removeItem(at: folder) }
    let counter = HostCommandTests.plugins.appendingPathComponent("counter")
    try FileManager.default.copyItem(at: counter, to: folder.appendingPathComponent("counter"))
    let conversation = try await Conversation(["host", folder.path, "--watch", "--json"])

    #expect(await conversation.next("loaded")?.string("plugin") == "counter")
    try conversation.send(#"{"plugin": "counter", "action": "increment"}"#)
    #expect(await conversation.next("state")?.state?["count"] as? Int == 1)

    try FileManager.default.copyItem(at: counter, to: folder.appendingPathComponent("second"))
    #expect(await conversation.next("loaded", timeout: 20)?.string("plugin") == "second")

    let script = folder.appendingPathComponent("counter/feature.lua")
    let text = try String(contentsOf: script, encoding: .utf8)
    try text.replacingOccurrences(of: "state.count + 1", with: "state.count + 10")
      .write(to: script, atomically: true, encoding: .utf8)
    #expect(await conversation.next("reloaded", timeout: 20)?.string("plugin") == "counter")
    try conversation.send(#"{"plugin": "counter", "action": "increment"}"#)
    #expect(await conversation.next("state")?.state?["count"] as? Int == 11)

    try "this is not Lua".write(to: script, atomically: true, encoding: .utf8)
    let failed = await conversation.next("failed", timeout: 20)
    #expect(failed?["reloading"] as? Bool == true)
    #expect(failed?.string("file") == "feature.lua")

    try FileManager.default.removeItem(at: folder.appendingPathComponent("second"))
    #expect(await conversation.next("unloaded", timeout: 20)?.string("plugin") == "second")
    try conversation.send(#"{"plugin": "counter", "action": "increment"}"#)
    #expect(await conversation.next("state")?.state?["count"] as? Int == 21)
    #expect(conversation.finish() == 1, "the failed reload is an error")
  }
}
