import Foundation
import Testing

/// A host never loses persisted data silently: a shared file that cannot be read is left alone, a
/// value that cannot be saved is refused when written, a file that cannot be used is kept aside,
/// and a second host on the same data folder is refused (`Fixtures/persist`, `Fixtures/storage`).
struct PersistedDataTests {
  static let persist = Lunar.testsFolder.appendingPathComponent("Fixtures/persist").path
  static let storage = Lunar.testsFolder.appendingPathComponent("Fixtures/storage").path

  /// A fresh data folder (`XDG_DATA_HOME`), and where the fixture's shared file is in it.
  struct DataFolder {
    let root: URL
    var environment: [String: String] { ["XDG_DATA_HOME": root.path] }
    /// The `lunar.shared` files of `Fixtures/persist`, in its own data folder.
    let shared: URL
    var settings: URL { shared.appendingPathComponent("persist-settings.json") }

    init() throws {
      root = try makeTemporaryFolder()
      shared = try Lunar.featureDataFolder(for: URL(fileURLWithPath: PersistedDataTests.persist), in: root)
        .appendingPathComponent("shared")
      try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    }

    func names() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []).sorted()
    }

    func remove() { removeTemporaryFolder(root) }
  }

  func run(_ input: String, in data: DataFolder, keepGoing: Bool = true) async throws -> Lunar.Output {
    try await Lunar.run(
      ["run", Self.persist, "--json"] + (keepGoing ? ["--keep-going"] : []), input: input, environment: data.environment
    )
  }

  @Test func aValueThatCannotBeSavedIsRefusedAndALaterGoodValueIsSaved() async throws {
    let data = try DataFolder()
    defer { data.remove() }
    let output = try await run("setRatio ratio=2\nbreakRatio\nsetRatio ratio=3.5\n", in: data)

    #expect(output.status == 1, "\(output)")
    let errors = output.events.named("error")
    // NB: state refuses NaN when it is written (JSON cannot write it): nothing is saved.
    #expect(errors.map { $0.string("message") } == [
      "feature.lua:17: cannot store NaN in state (at state.settings.ratio): state is written as JSON (events, recordings, "
        + "saved files), which has no NaN or infinities"
    ])
    let states = output.events.named("state").map { ($0.state?["settings"] as? [String: Any])?["ratio"] as? Double }
    #expect(states == [2, 2, 3.5], "the refused action left the state as it was")
    #expect(try String(contentsOf: data.settings, encoding: .utf8) == "{\n  \"ratio\": 3.5,\n  \"title\": \"untitled\"\n}\n")
  }

  @Test func textThatIsNotUTF8IsRefusedWhenWrittenAndTheFileIsUnchanged() async throws {
    let data = try DataFolder()
    defer { data.remove() }
    let output = try await run("setTitle title=kept\nbreakTitle\n", in: data)

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").first?.string("message")?.hasSuffix(
      "cannot store a string that is not UTF-8 in state (at state.settings.title: byte 3 is 0xE9): state is written as "
        + "JSON (events, recordings, saved files), whose text is UTF-8; encode binary data as text first (hex, base64)")
      == true, "\(output)")
    #expect(try String(contentsOf: data.settings, encoding: .utf8).contains(#""title": "kept""#))
  }

  @Test func aFolderInPlaceOfASharedFileIsLeftAloneAndEveryChangeFails() async throws {
    let data = try DataFolder()
    defer { data.remove() }
    try FileManager.default.createDirectory(at: data.settings, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: data.settings.appendingPathComponent("inside"))
    let output = try await run("setRatio ratio=2\nsetTitle title=x\n", in: data)

    #expect(output.status == 1, "\(output)")
    let errors = output.events.named("error")
    #expect(errors.first?.string("kind") == "data")
    #expect(errors.first?.string("message") == "\(data.settings.path) cannot be read (it is a folder, not a file); it is left as it is, and changes to this value are not saved until it can be read")
    #expect(errors.dropFirst().map { $0.string("message") } == Array(repeating: """
      lunar.shared("persist-settings") cannot be changed: \(data.settings.path) could not be read when it was loaded \
      (it is a folder, not a file), and saving would overwrite it. Fix or move the file, then restart.
      """, count: 2))
    #expect(output.events.named("state").allSatisfy { $0.state?["edits"] as? Int == 0 })
    #expect(try Data(contentsOf: data.settings.appendingPathComponent("inside")) == Data("mine".utf8))
  }

  @Test(.enabled(if: geteuid() != 0, "root reads files whatever their permissions"))
  func aSharedFileWithoutReadPermissionIsLeftAlone() async throws {
    let data = try DataFolder()
    defer { data.remove() }
    let original = Data(#"{"ratio": 7, "title": "mine"}"#.utf8)
    try original.write(to: data.settings)
    chmod(data.settings.path, 0)
    defer { chmod(data.settings.path, 0o644) }
    let output = try await run("setRatio ratio=2\n", in: data)

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").first?.string("message") == "\(data.settings.path) cannot be read (Permission denied); it is left as it is, and changes to this value are not saved until it can be read")
    chmod(data.settings.path, 0o644)
    #expect(try Data(contentsOf: data.settings) == original)
  }

  @Test func aSharedFileNestedDeeperThanTheDataLimitIsRenamedAsideAndReported() async throws {
    let data = try DataFolder()
    defer { data.remove() }
    let deep = Data(("{\"ratio\": 1, \"n\": " + String(repeating: "[", count: 150) + String(repeating: "]", count: 150) + "}").utf8)
    try deep.write(to: data.settings)
    let output = try await run("setRatio ratio=2\n", in: data)

    #expect(output.status == 0, "\(output)")
    let aside = try #require(data.names().first { $0.hasPrefix("persist-settings.json.corrupt-") }, "\(data.names())")
    #expect(try Data(contentsOf: data.shared.appendingPathComponent(aside)) == deep)
    let warning = try #require(output.events.named("warning").first, "\(output)")
    #expect(warning.string("message") == """
      \(data.settings.path) cannot be used (n[1][1][1][1][1]…(91 more)…[1][1][1]: nested deeper than the limit of 100 \
      levels (at byte 117 of the text)); it was renamed to \(data.shared.appendingPathComponent(aside).path), and the \
      default value is used.
      """)
    #expect(try String(contentsOf: data.settings, encoding: .utf8).contains(#""ratio": 2"#))
  }

  @Test func aSecondHostOnTheSameDataFolderIsRefusedAndTheFirstKeepsItsChanges() async throws {
    let data = try DataFolder()
    defer { data.remove() }
    let first = try await RunningHost(["run", Self.persist, "--json"], environment: data.environment)
    try await first.waitFor { $0.contains(#""event":"ready""#) }
    try first.send("setRatio ratio=5")
    try await first.waitFor { $0.contains(#""event":"state""#) }

    let second = try await Lunar.run(["run", Self.persist, "--json"], input: "setRatio ratio=9\n", environment: data.environment)
    #expect(second.status == 1, "\(second)")
    #expect(second.events.map(\.name) == ["error"], "\(second)")
    #expect(second.events.first?.string("message") == """
      feature Persist: lunar.shared("persist-settings") is kept in \(data.shared.path), which another lunar host \
      (pid \(first.process.processIdentifier)) is using; two hosts would overwrite each other's changes. Stop the other \
      host, or run this one with its own data folder (XDG_DATA_HOME).
      """)

    #expect(try await first.finish() == 0)
    #expect(try String(contentsOf: data.settings, encoding: .utf8).contains(#""ratio": 5"#))
  }

  @Test func luaTestsNeverClaimTheDataFolder() async throws {
    let data = try DataFolder()
    defer { data.remove() }
    let host = try await RunningHost(["run", Self.persist, "--json"], environment: data.environment)
    try await host.waitFor { $0.contains(#""event":"ready""#) }

    let output = try await Lunar.run(["test", "--time-limit", "60", Self.persist], environment: data.environment)
    #expect(output.status == 0, "\(output)")
    #expect(try await host.finish() == 0)
    #expect(!FileManager.default.fileExists(atPath: data.settings.path), "tests wrote no file")
  }

  @Test func checkingAFeatureWhileAHostRunsItNeedsNoClaim() async throws {
    let data = try DataFolder()
    defer { data.remove() }
    let host = try await RunningHost(["run", Self.persist, "--json"], environment: data.environment)
    try await host.waitFor { $0.contains(#""event":"ready""#) }

    let output = try await Lunar.run(["check", Self.persist], environment: data.environment)
    #expect(output.status == 0, "\(output)")
    #expect(try await host.finish() == 0)
  }

  // MARK: deps.storage

  func runStorage(_ input: String, file: URL) async throws -> Lunar.Output {
    try await Lunar.run(
      ["run", Self.storage, "--json", "--keep-going"], input: input, environment: ["LUNAR_STORAGE": file.path]
    )
  }

  @Test func aStorageDocumentThatCannotBeReadIsNeverReplaced() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("storage.json")
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
    let output = try await runStorage("save ratio=2\n:wait\nload\n:wait\n", file: file)

    #expect(output.status == 1, "\(output)")
    let messages = output.events.named("error").compactMap { $0.string("message") }
    #expect(messages.count == 2, "\(output)")
    #expect(messages.allSatisfy { $0.contains("\(file.path) cannot be read (it is a folder, not a file); it is left as it is, and nothing is saved over it") }, "\(messages)")
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && isFolder.boolValue)
  }

  @Test func aStorageValueThatCannotBeSavedIsRefusedAndTheDocumentKept() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("storage.json")
    let output = try await runStorage("save ratio=2\n:wait\nsave broken=true\n:wait\n", file: file)

    #expect(output.status == 1, "\(output)")
    #expect(output.events.named("error").first?.string("message")?.contains(
      #"cannot save "draft" to \#(file.path): storage.draft.ratio: NaN (not a number) is not a JSON number"#) == true, "\(output)")
    #expect(try String(contentsOf: file, encoding: .utf8) == "{\n  \"draft\": {\n    \"ratio\": 2,\n    \"title\": \"untitled\"\n  }\n}\n")
  }

  @Test func aStorageDocumentThatIsNotJSONIsRenamedAsideAndReported() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let file = folder.appendingPathComponent("storage.json")
    try Data("garbage".utf8).write(to: file)
    let output = try await runStorage("load\n:wait\n", file: file)

    #expect(output.status == 0, "\(output)")
    let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("storage.json.corrupt-") })
    #expect(try String(contentsOf: folder.appendingPathComponent(aside), encoding: .utf8) == "garbage")
    #expect(output.events.named("warning").first?.string("message")?.hasSuffix(
      "it was renamed to \(folder.appendingPathComponent(aside).path), and the store starts empty.") == true, "\(output)")
    #expect(output.events.named("state").last?.state?["loaded"] as? Bool == true)
  }
}
