import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// `deps.files`: a feature reads its own bundled files, and nothing outside its folder.
@MainActor
@Suite final class FilesCapabilityTests {
  let folder: URL
  let outside: URL

  init() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-files-\(UUID().uuidString)")
    folder = base.appendingPathComponent("feature")
    outside = base.appendingPathComponent("secret.txt")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("data/images"), withIntermediateDirectories: true)
    try Data("top secret".utf8).write(to: outside)
    try Data(#"{"a":1}"#.utf8).write(to: folder.appendingPathComponent("data/breeds.json"))
    try Data([0, 255, 10]).write(to: folder.appendingPathComponent("data/raw.bin"))
    try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("escape.txt"), withDestinationURL: outside)
  }

  deinit { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }

  func call(_ expression: String) throws -> LuaValue {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.files(in: folder))
    let harness = try FeatureHarness(dependencies: dependencies)
    let feature = try harness.load("""
      local lunar = require "lunar"
      return lunar.feature {
        name = "Files", initial = {},
        reduce = function(state, action, deps) state.result = \(expression) end,
      }
      """, chunkName: "files.lua")
    let store = makeStore(feature.reducer(), state: feature.initialState)
    store.send(["type": "go"])
    if let error = harness.takeErrors().first { throw error }
    return store.state.value[LuaString("result")]
  }

  @Test func readReturnsAFilesBytes() throws {
    #expect(try call(#"deps.files.read("data/breeds.json")"#) == #"{"a":1}"#)
    // NB: bytes that are not UTF-8 cannot be state (JSON cannot write them): read as numbers.
    #expect(try call(#"{ deps.files.read("data/raw.bin"):byte(1, -1) }"#) == [0, 255, 10])
  }

  @Test func listReturnsSortedNamesWithFoldersMarked() throws {
    #expect(try call(#"deps.files.list("data")"#) == ["breeds.json", "images/", "raw.bin"])
    #expect(try call("deps.files.list()") == ["data/", "escape.txt"])
  }

  @Test func existsSaysWhetherAPathIsThere() throws {
    #expect(try call(#"deps.files.exists("data/breeds.json")"#) == true)
    #expect(try call(#"deps.files.exists("data/nope.json")"#) == false)
  }

  @Test(arguments: [
    (#"deps.files.read("/etc/passwd")"#, "'/etc/passwd' is absolute: paths are relative to the feature's folder"),
    (#"deps.files.read("../secret.txt")"#, "'../secret.txt' uses '..': paths stay inside the feature's folder"),
    (#"deps.files.read("data/../../secret.txt")"#, "'data/../../secret.txt' uses '..': paths stay inside the feature's folder"),
    (#"deps.files.read("escape.txt")"#, "'escape.txt' leads out of the feature's folder (through a symlink)"),
    (#"deps.files.read("data")"#, "'data' is a folder (use files.list)"),
    (#"deps.files.read(42)"#, "expects a path (a string), got number"),
  ])
  func aPathOutsideTheFolderIsRefused(_ expression: String, _ message: String) throws {
    let error = try #require(throws: LuaFeatureError.self) { try call(expression) }
    #expect(error.message.contains(message), "\(error)")
    #expect(!error.message.contains("top secret"))
  }

  @Test func aMissingFileIsAnErrorNamingItAndTheFolder() throws {
    let error = try #require(throws: LuaFeatureError.self) { try call(#"deps.files.read("nope.txt")"#) }
    #expect(error.message.contains("no file 'nope.txt' in \(folder.standardizedFileURL.resolvingSymlinksInPath().path)"), "\(error)")
  }

  @Test func aFileOverTheSizeLimitIsNotRead() throws {
    let big = folder.appendingPathComponent("big.bin")
    _ = FileManager.default.createFile(atPath: big.path, contents: nil)
    let handle = try FileHandle(forWritingTo: big)
    try handle.truncate(atOffset: UInt64(FilesAccess.maximumFileSize + 1))  // sparse: no disk used
    try handle.close()

    let error = try #require(throws: LuaFeatureError.self) { try call(#"deps.files.read("big.bin")"#) }
    #expect(error.message.contains("'big.bin' has \(FilesAccess.maximumFileSize + 1) bytes; files over 64 MiB are not read"), "\(error)")
  }
}
