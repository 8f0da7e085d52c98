import Composable
import Foundation
@testable import LuaFeatures
import Testing

/// The one way a feature's persisted data reaches the file system: inside its folder, within its
/// quota.
struct LuaDataFolderTests {
  static let folder = URL(fileURLWithPath: "/data/lunar/plugins/notes-0123456789abcdef")

  @Test func aFileOutsideTheFolderIsRefusedBeforeTheStorageSeesIt() throws {
    let storage = FileStorage.inMemory(["/data/lunar/plugins/other/storage.json": Data("{}".utf8)])
    let data = LuaDataFolder(Self.folder, storage: storage)

    #expect {
      _ = try data.fileStorage.load(Self.folder.appendingPathComponent("../other/storage.json"))
    } throws: { error in
      "\(error)" == "\(Self.folder.path)/../other/storage.json is outside \(Self.folder.path)"
    }
  }

  @Test func aSaveOverTheQuotaIsRefusedAndTheFileKeepsWhatItHad() throws {
    let file = Self.folder.appendingPathComponent("storage.json")
    let storage = FileStorage.inMemory([file.path: Data("{}".utf8)])
    let quota = LuaDataQuota(limit: 10, owner: "plugin notes")
    let data = LuaDataFolder(Self.folder, storage: storage, quota: quota)
    _ = try data.fileStorage.load(file)

    #expect {
      try data.fileStorage.save(Data(repeating: 0x20, count: 11), file)
    } throws: { error in
      "\(error)" == "storage.json would take 11 bytes, over the 10 bytes plugin notes may keep"
    }
    #expect(try storage.load(file) == Data("{}".utf8))
    #expect(quota.used == 2)
  }

  @Test func aSaveThatShrinksIsAllowedOverTheQuota() throws {
    let file = Self.folder.appendingPathComponent("storage.json")
    let storage = FileStorage.inMemory([file.path: Data(repeating: 0x20, count: 50)])
    let quota = LuaDataQuota(limit: 10, owner: "plugin notes")
    let data = LuaDataFolder(Self.folder, storage: storage, quota: quota)
    _ = try data.fileStorage.load(file)

    try data.fileStorage.save(Data(repeating: 0x20, count: 20), file)

    #expect(quota.used == 20)
  }

  @Test func sha256MatchesTheStandardsExamples() {
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }
}
