import Foundation
import Testing

/// A feature run with `lunar run` keeps its data where a plugin does: in a folder tied to its own
/// folder's real path, within a quota (`--data-limit`). Two feature folders of the same name never
/// read each other's data, a document over the limit is refused with the file kept as it was, and
/// data an earlier Lunar kept under the folder's name is left where it is, with a warning
/// (`Hostile/data_hog.lua`).
@Suite struct HostileFeatureDataTests {
  static let hog = URL(fileURLWithPath: Lunar.hostile("data_hog.lua"))

  /// A folder named `name` under `parent` holding the hog as its `feature.lua`.
  func feature(_ name: String, in parent: URL) throws -> URL {
    let folder = parent.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Self.hog, to: folder.appendingPathComponent("feature.lua"))
    return folder
  }

  func run(_ feature: URL, _ input: String, data: URL, _ options: [String] = []) async throws -> Lunar.Output {
    try await Lunar.run(["run", feature.path, "--keep-going"] + options, input: input, environment: ["XDG_DATA_HOME": data.path])
  }

  @Test func twoFeatureFoldersOfTheSameNameKeepTheirDataApart() async throws {
    let root = try makeTemporaryFolder()
    defer { removeTemporaryFolder(root) }
    let data = root.appendingPathComponent("data")
    let mine = try feature("notes", in: root.appendingPathComponent("one"))
    let impostor = try feature("notes", in: root.appendingPathComponent("two"))

    let saved = try await run(mine, "save title=mine\n", data: data)
    let read = try await run(impostor, "load\n", data: data)

    #expect(saved.status == 0, "\(saved)")
    #expect(read.status == 0, "\(read)")
    #expect(read.events.named("state").last?.state?["loaded"] as? Bool == true, "\(read)")
    #expect(read.events.named("state").last?.state?["draft"] == nil, "\(read)")
    let document = try Lunar.featureDataFolder(for: mine, in: data).appendingPathComponent("storage.json")
    #expect(try String(contentsOf: document, encoding: .utf8) == "{\n  \"draft\": \"mine\"\n}\n")
    let other = try Lunar.featureDataFolder(for: impostor, in: data)
    #expect(!FileManager.default.fileExists(atPath: other.appendingPathComponent("storage.json").path))
    #expect(other.lastPathComponent.hasPrefix("notes-") && other != document.deletingLastPathComponent())
  }

  @Test func aDocumentOverTheDataLimitIsRefusedAndTheFileKeepsWhatItHad() async throws {
    let data = try makeTemporaryFolder()
    defer { removeTemporaryFolder(data) }
    let document = try Lunar.featureDataFolder(for: Self.hog, in: data).appendingPathComponent("storage.json")

    let output = try await run(Self.hog, "save title=mine\nhog\nload\n", data: data, ["--data-limit", "1", "--timeout", "60"])

    #expect(output.status == 1, "\(output)")
    let errors = output.events.named("error")
    #expect(errors.count == 1, "\(output)")
    let at = try #require(String(contentsOf: Self.hog, encoding: .utf8).components(separatedBy: "\n")
      .firstIndex { $0.contains("-- over the limit") }) + 1
    #expect(errors.first?.string("kind") == "effect")
    #expect(errors.first?.string("message") == "data_hog.lua:\(at): deps.storage.set failed: cannot save \"draft\" to "
      + "\(document.path): storage.json would take 2.0 MiB, over the 1.0 MiB feature Hostile may keep; the document keeps what it had")
    #expect(output.events.named("state").last?.state?["draft"] as? String == "mine", "\(output)")
    #expect(try String(contentsOf: document, encoding: .utf8) == "{\n  \"draft\": \"mine\"\n}\n")
  }

  @Test func dataKeptUnderTheFolderNameByAnEarlierLunarIsLeftWhereItIsWithAWarning() async throws {
    let root = try makeTemporaryFolder()
    defer { removeTemporaryFolder(root) }
    let data = root.appendingPathComponent("data")
    let earlier = data.appendingPathComponent("lunar/storage/notes.json")
    try FileManager.default.createDirectory(at: earlier.deletingLastPathComponent(), withIntermediateDirectories: true)
    let old = Data("{\"draft\": \"old\"}".utf8)
    try old.write(to: earlier)
    let notes = try feature("notes", in: root)

    let output = try await run(notes, "load\n", data: data)

    #expect(output.status == 0, "\(output)")
    let folder = try Lunar.featureDataFolder(for: notes, in: data).path
    #expect(output.events.named("warning").map { $0.string("message") } == [
      "feature notes: \(earlier.path) holds data an earlier Lunar kept under the name notes; a feature's data now lives "
        + "in a folder tied to the feature's own folder, \(folder), and starts empty there. If that data is this feature's, "
        + "move the files into \(folder) (Lunar does not, since any folder may have that name)."
    ], "\(output)")
    #expect(output.events.named("state").last?.state?["loaded"] as? Bool == true, "\(output)")
    #expect(output.events.named("state").last?.state?["draft"] == nil, "\(output)")
    #expect(try Data(contentsOf: earlier) == old)
  }

  @Test func aNegativeDataLimitIsRefusedBeforeAnythingRuns() async throws {
    let output = try await Lunar.run(["run", Self.hog.path, "--data-limit=-1"], input: "")

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains("--data-limit must be from 0 to 1073741824 megabytes, got -1"), "\(output)")
  }
}
