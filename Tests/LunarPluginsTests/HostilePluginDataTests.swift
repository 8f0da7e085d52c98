import Foundation
import IssueReporting
import LuaBridge
import LuaFeatures
import LunarPlugins
import Testing

/// The scripts of `Hostile/` try to reach data that is not their plugin's: a `lunar.shared` key
/// changed after it was checked, a manifest declaring another plugin's name, a symlink in the data
/// folder, a document larger than the plugin may keep. Each is refused with an exact error, and
/// every file outside the plugin's own data folder is left byte for byte as it was.
@MainActor
struct HostilePluginDataTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hostile")

  let harness: PluginHarness
  /// The host's data folder, beside the plugin folders (a hidden name: no plugin is loaded from it).
  let data: URL
  /// The victim: a plugin named `victim` asking for storage, whose document holds a token.
  let victim: URL
  let victimDocument: URL
  static let token = Data("{\n  \"token\": \"s3cret\"\n}\n".utf8)

  init(policy: PluginPolicy = .grantRequested) throws {
    harness = try PluginHarness(policy: policy)
    data = harness.folders.root.appendingPathComponent(".data", isDirectory: true)
    harness.host.dataFolder = data
    harness.host.fileStorage = .fileSystem
    victim = try harness.folders.plugin("victim", [
      "plugin.lua": manifest("victim", "  capabilities = { storage = true },"),
      "feature.lua": try Self.script("data_probe.lua"),
    ])
    victimDocument = PluginHost.dataFolder(for: victim, name: "victim", in: data).appendingPathComponent("storage.json")
    try FileManager.default.createDirectory(at: victimDocument.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Self.token.write(to: victimDocument)
  }

  static func script(_ name: String) throws -> String {
    try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
  }

  /// `name` from the corpus, aimed at the victim's document.
  func aimed(_ name: String) throws -> String {
    try Self.script(name).replacingOccurrences(
      of: "VICTIM", with: PluginHost.dataFolder(for: victim, name: "victim", in: data).lastPathComponent)
  }

  /// Every file and symlink under the test's folder (plugins and data), with its bytes or target.
  func snapshot() throws -> [String: String] {
    let root = harness.folders.root
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    while let relative = enumerator?.nextObject() as? String {
      let path = root.appendingPathComponent(relative).path
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        files[relative] = "link to \(target)"
        continue
      }
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      files[relative] = isFolder.boolValue ? "folder" : String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }
    return files
  }

  /// Sends `action` to `plugin` and waits for its effects; returns the answers the probe kept.
  func ask(_ plugin: Plugin, _ action: LuaValue) async -> LuaValue {
    await plugin.send(action).finish()
    return plugin.state.answers
  }

  // MARK: - A lunar.shared key changed after it was checked

  @Test func aSharedKeyChangedAfterItIsMadeIsRefusedAndNoFileIsTouched() throws {
    let before = try snapshot()
    let source = try aimed("shared_key_changed.lua")

    #expect(throws: PluginError.self) { try harness.load("thief", ["feature.lua": source]) }

    let at = try #require(line(of: "loot.key =", in: source))
    #expect(harness.failures.map(\.message) == [
      "feature.lua:\(at): lunar.shared(\"notes\") cannot be changed after it is made (tried to set \"key\"): "
        + "declare another value with lunar.shared instead"
    ])
    var after = try snapshot()
    after["thief"] = nil
    after["thief/feature.lua"] = nil
    #expect(after == before)
    #expect(try Data(contentsOf: victimDocument) == Self.token)
  }

  @Test func aSharedKeyWrittenWithRawsetIsIgnoredAndTheValueStaysInThePluginsFolder() throws {
    let before = try snapshot()
    let thief = try harness.load("thief", ["feature.lua": try aimed("shared_key_rawset.lua")])
    #expect(thief.state.loot == .table([:]))

    thief.send(["type": "write"])

    #expect(harness.errors.isEmpty)
    let own = thief.dataFolder.lastPathComponent
    let after = try snapshot()
    #expect(after.filter { before[$0.key] != $0.value }.keys.sorted() == [
      ".data/\(own)", ".data/\(own)/shared", ".data/\(own)/shared/.lock", ".data/\(own)/shared/notes.json",
      "thief", "thief/feature.lua",
    ])
    #expect(after[".data/\(own)/shared/notes.json"] == "{\n  \"mine\": true\n}\n")
    #expect(try Data(contentsOf: victimDocument) == Self.token)
  }

  @Test func aSharedKeyChangedInTheFeatureTableIsRefusedWhereItBecomesAFileName() throws {
    let before = try snapshot()
    let source = try aimed("shared_fields_changed.lua")

    #expect(throws: PluginError.self) { try harness.load("thief", ["feature.lua": source]) }

    let target = "../../" + PluginHost.dataFolder(for: victim, name: "victim", in: data).lastPathComponent + "/storage"
    #expect(harness.failures.map(\.message) == [
      "feature Thief: \"\(target)\" is not a lunar.shared key (letters, digits, `_`, `-` and `.`, not first, at most 100 bytes)"
    ])
    var after = try snapshot()
    after["thief"] = nil
    after["thief/feature.lua"] = nil
    #expect(after == before)
  }

  // MARK: - A manifest declaring another plugin's name

  @Test func aPluginDeclaringAnotherPluginsNameDoesNotGetItsData() async throws {
    let impostor = try harness.folders.plugin("a-impostor", [
      "plugin.lua": manifest("victim", "  capabilities = { storage = true },"),
      "feature.lua": try Self.script("data_probe.lua"),
    ])

    let results = harness.host.loadAll(in: harness.folders.root)

    #expect(results.count == 2)
    let loaded = try #require(harness.host["victim"])
    #expect(loaded.folder == impostor.standardizedFileURL)
    #expect(harness.failures.map(\.description) == [
      "plugin victim: \(victim.standardizedFileURL.path) declares the name victim, but a plugin of that name is already loaded, "
        + "from \(impostor.standardizedFileURL.path); it was not loaded (plugins need names of their own: rename one of them; "
        + "their data is kept apart either way)"
    ])
    #expect(loaded.dataFolder != PluginHost.dataFolder(for: victim, name: "victim", in: data))
    #expect(await ask(loaded, ["type": "get", "key": "token"]) == [["ok": true]])
    #expect(await ask(loaded, ["type": "set", "key": "token", "value": "mine"]).arrayValue?.last == ["ok": true, "result": true])
    #expect(try Data(contentsOf: victimDocument) == Self.token)

    await harness.host.unload("victim")
    let real = try harness.host.load(victim)
    #expect(await ask(real, ["type": "get", "key": "token"]) == [["ok": true, "result": "s3cret"]])
  }

  @Test func twoFoldersDeclaringOneNameHaveTwoDataFolders() throws {
    let other = harness.folders.root.appendingPathComponent("elsewhere/victim")
    #expect(PluginHost.dataFolder(for: victim, name: "victim", in: data) != PluginHost.dataFolder(for: other, name: "victim", in: data))
    #expect(PluginHost.dataFolder(for: victim, name: "victim", in: data).lastPathComponent.hasPrefix("victim-"))
  }

  @Test func dataKeptUnderTheNameByAnEarlierLunarIsLeftWhereItIsWithAWarning() throws {
    let earlier = data.appendingPathComponent("victim/storage.json")
    try FileManager.default.createDirectory(at: earlier.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{\"old\": true}".utf8).write(to: earlier)
    let impostor = try harness.folders.plugin("impostor", [
      "plugin.lua": manifest("victim", "  capabilities = { storage = true },"),
      "feature.lua": try Self.script("data_probe.lua"),
    ])
    let log = IssueLog()

    let loaded = try withIssueReporters([log]) { try harness.host.load(impostor) }

    let folder = loaded.dataFolder.path
    #expect(log.messages == [
      "plugin victim: \(data.path)/victim holds data an earlier Lunar kept under the name victim; a plugin's data now lives "
        + "in a folder tied to the plugin's own folder, \(folder), and starts empty there. If that data is this plugin's, "
        + "move the files into \(folder) (Lunar does not, since any folder may declare a name)."
    ])
    #expect(try Data(contentsOf: earlier) == Data("{\"old\": true}".utf8))
  }

  // MARK: - A symlink in the data folder

  @Test func aStorageDocumentThatIsASymlinkLeadingOutIsNeitherReadNorWritten() async throws {
    let thiefFolder = try harness.folders.plugin("thief", [
      "plugin.lua": manifest("thief", "  capabilities = { storage = true },"),
      "feature.lua": try Self.script("data_probe.lua"),
    ])
    let own = PluginHost.dataFolder(for: thiefFolder, name: "thief", in: data)
    try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: own.appendingPathComponent("storage.json"), withDestinationURL: victimDocument)
    let before = try snapshot()
    let thief = try harness.host.load(thiefFolder)

    _ = await ask(thief, ["type": "get", "key": "token"])
    let answers = await ask(thief, ["type": "set", "key": "token", "value": "mine"])

    let refusal = """
      \(own.path)/storage.json cannot be read ('storage.json' leads out of \(own.path) (through a symlink)); it is left \
      as it is, and nothing is saved over it
      """
    let at = try #require(line(of: "deps.storage.set(action.key, value)", in: try Self.script("data_probe.lua")))
    #expect(answers == [
      ["ok": false, "result": .text("deps.storage.get failed: " + refusal)],
      ["ok": false, "result": .text("feature.lua:\(at): deps.storage.set failed: " + refusal)],
    ])
    let changed = try snapshot().filter { before[$0.key] != $0.value }.keys.sorted()
    #expect(changed == [
      ".data/\(own.lastPathComponent)/.lock", ".data/\(own.lastPathComponent)/shared",
      ".data/\(own.lastPathComponent)/shared/.lock",
    ], "\(changed)")
    #expect(try Data(contentsOf: victimDocument) == Self.token)
  }

  @Test func aSharedFileThatIsASymlinkLeadingOutIsNotLoadedNorWrittenOver() throws {
    let thiefFolder = try harness.folders.plugin("thief", ["feature.lua": try Self.script("data_probe.lua")])
    let shared = PluginHost.dataFolder(for: thiefFolder, name: "thief", in: data).appendingPathComponent("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: shared.appendingPathComponent("notes.json"), withDestinationURL: victimDocument)
    let log = IssueLog()

    let thief = try withIssueReporters([log]) { try harness.host.load(thiefFolder) }
    thief.send(["type": "note", "text": "mine"])

    let file = shared.appendingPathComponent("notes.json").path
    let refusal = "'notes.json' leads out of \(shared.path) (through a symlink)"
    #expect(log.messages == [
      "\(file) cannot be read (\(refusal)); it is left as it is, and changes to this value are not saved until it can be read"
    ])
    #expect(thief.state.notes == ["text": ""])
    #expect(harness.errors.map(\.error.message) == [
      "lunar.shared(\"notes\") cannot be changed: \(file) could not be read when it was loaded (\(refusal)), and saving would "
        + "overwrite it. Fix or move the file, then restart."
    ])
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file) == victimDocument.path)
    #expect(try Data(contentsOf: victimDocument) == Self.token)
  }

  // MARK: - A document larger than the plugin may keep

  static let smallQuota = PluginPolicy { manifest, proposed in
    var grants = proposed
    if manifest.name == "bloat" { grants.dataLimit = 1024 }
    return grants
  }

  func bloat() throws -> Plugin {
    try harness.load("bloat", [
      "plugin.lua": manifest("bloat", "  capabilities = { storage = true },"),
      "feature.lua": try Self.script("data_probe.lua"),
    ])
  }

  @Test func aPolicySetsEachPluginsDataLimit() throws {
    let test = try Self(policy: Self.smallQuota)
    let bloat = try test.bloat()
    let other = try test.harness.host.load(test.victim)
    #expect(bloat.grants.dataLimit == 1024)
    #expect(bloat.dataQuota.limit == 1024)
    #expect(other.dataQuota.limit == PluginHost.defaultDataLimit)
    #expect(PluginHost.defaultDataLimit == 16 << 20)
  }

  @Test func aStorageSetOverTheQuotaFailsAndTheDocumentKeepsWhatItHad() async throws {
    let test = try Self(policy: Self.smallQuota)
    let bloat = try test.bloat()
    let document = bloat.dataFolder.appendingPathComponent("storage.json")
    _ = await test.ask(bloat, ["type": "set", "key": "blob", "size": 500])
    let kept = try Data(contentsOf: document)

    let answers = await test.ask(bloat, ["type": "set", "key": "blob", "size": 4000])

    let at = try #require(line(of: "deps.storage.set(action.key, value)", in: try Self.script("data_probe.lua")))
    #expect(answers.arrayValue?.last == [
      "ok": false,
      "result": .text(
        "feature.lua:\(at): deps.storage.set failed: cannot save \"blob\" to \(document.path): storage.json would take 3.9 KiB, over the "
          + "1.0 KiB plugin bloat may keep; the document keeps what it had"),
    ])
    #expect(try Data(contentsOf: document) == kept)
    #expect(bloat.dataQuota.used == kept.count)
  }

  @Test func aSharedWriteOverTheQuotaFailsTheActionAndTheFileKeepsItsValue() async throws {
    let test = try Self(policy: Self.smallQuota)
    let bloat = try test.bloat()
    _ = await test.ask(bloat, ["type": "set", "key": "blob", "size": 600])
    bloat.send(["type": "note", "text": "small"])
    let file = bloat.dataFolder.appendingPathComponent("shared/notes.json")
    let kept = try Data(contentsOf: file)

    bloat.send(["type": "note", "size": 600])

    #expect(test.harness.errors.map(\.error.message) == [
      "lunar.shared(\"notes\") could not be saved to \(file.path): notes.json would take 617 bytes, over the 1.0 KiB plugin "
        + "bloat may keep (its other files take 617 bytes)"
    ])
    #expect(bloat.state.notes == ["text": "small"])
    #expect(try Data(contentsOf: file) == kept)
  }
}

/// The line of the first line of `source` containing `text`, from 1.
private func line(of text: String, in source: String) -> Int? {
  source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }.map { $0 + 1 }
}

/// Collects reported issues instead of failing the test.
private final class IssueLog: IssueReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []

  var messages: [String] { lock.withLock { entries } }

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let text = message() ?? ""
    lock.withLock { entries.append(text) }
  }
}
