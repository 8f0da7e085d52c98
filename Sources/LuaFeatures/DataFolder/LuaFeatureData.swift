import Composable
import Foundation
import IssueReporting

/// Where one feature (a plugin, or a feature run with `lunar run`) keeps its data: a folder tied to
/// the identity of the feature's own folder, the storage its files are read and written in, and
/// the quota they count against.
///
/// ```swift
/// let data = LuaFeatureData(
///   for: location.root, name: "counter", in: LuaFeatureData.defaultRoot("features"),
///   fileStorage: .fileSystem, quota: LuaDataQuota(limit: LuaFeatureData.defaultLimit, owner: "counter"))
/// dependencies.offer(data.storage)            // deps.storage: <folder>/storage.json
/// host.shared.folder = data.sharedFolder      // lunar.shared "file" values: <folder>/shared/<key>.json
/// host.shared.quota = data.quota
/// ```
///
/// The folder is `<root>/<name>-<16 hex digits>` (``folder(for:name:in:)``): another folder of the
/// same name gets another data folder, so data belongs to the folder a feature was loaded from,
/// never to a name it declares or happens to have.
public struct LuaFeatureData: Sendable {
  /// `<root>/<name>-<digits>`.
  public let folder: URL
  /// The real file system, or memory when the host keeps data in memory.
  public let fileStorage: FileStorage
  /// What its storage document and shared files may take together.
  public let quota: LuaDataQuota

  /// The data of a feature whose data folder is `folder`.
  public init(folder: URL, fileStorage: FileStorage, quota: LuaDataQuota) {
    self.folder = folder
    self.fileStorage = fileStorage
    self.quota = quota
  }

  /// The data of the feature in `featureFolder`, named `name`, under `root`
  /// (``folder(for:name:in:)``).
  public init(for featureFolder: URL, name: String, in root: URL, fileStorage: FileStorage, quota: LuaDataQuota) {
    self.init(folder: Self.folder(for: featureFolder, name: name, in: root), fileStorage: fileStorage, quota: quota)
  }

  /// Its `deps.storage` document.
  public var storageFile: URL { folder.appendingPathComponent("storage.json") }
  /// The folder of its `lunar.shared` files.
  public var sharedFolder: URL { folder.appendingPathComponent("shared", isDirectory: true) }

  /// `storage` over its document, within its quota.
  public var storage: LuaCapability {
    .storage(file: storageFile, fileStorage: fileStorage, quota: quota)
  }

  /// The bytes a feature's storage document and shared files may take together by default: 16 MiB,
  /// room for settings, drafts and backups, while each change still rewrites a whole document in
  /// a fraction of a second.
  public static let defaultLimit = 16 << 20

  /// `<data>/lunar/<kind>`, where `<data>` is `$XDG_DATA_HOME`, else `~/.local/share`: the root of
  /// the data folders of `plugins` (`lunar host`) or `features` (`lunar run`, `lunar test`).
  public static func defaultRoot(_ kind: String) -> URL {
    // NB: `<data>/lunar/storage/<name>.json` is where an earlier Lunar kept a feature's storage:
    //     two up is `<data>/lunar`.
    LuaCapability.defaultStorageFile(for: kind).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(kind)
  }

  /// The data folder of the feature in `featureFolder`, named `name`, under `root`:
  /// `<root>/<name>-<16 hex digits>`, the digits the start of the SHA-256 of the feature folder's
  /// real path (symlinks resolved).
  ///
  /// Another folder of the same name gets another data folder. The name is only there for people
  /// reading the folder. A feature folder that moves starts with no data; its old data stays where
  /// it was (move it into the new folder by hand).
  public static func folder(for featureFolder: URL, name: String, in root: URL) -> URL {
    let path = featureFolder.standardizedFileURL.resolvingSymlinksInPath().path
    let digest = SHA256.hex(Array(path.utf8)).prefix(16)
    return root.appendingPathComponent("\(name)-\(digest)", isDirectory: true)
  }

  /// Warns, while its own folder holds no data yet, that `earlier` holds data an earlier Lunar
  /// kept for it by `name`, and says where its data lives now.
  ///
  /// NB: never moved automatically: any folder could have that name, and so have written it.
  ///
  /// - Parameters:
  ///   - earlier: The files and folders of the earlier layout that exist.
  ///   - kind: What it is, for the message: `plugin` or `feature`.
  ///   - name: The name the earlier layout kept its data under.
  ///   - reason: Why Lunar moves nothing: `any folder may declare a name` (a manifest's), `any
  ///     folder may have that name` (a folder's).
  public func noteEarlierData(_ earlier: [URL], kind: String, name: String, reason: String) {
    guard !earlier.isEmpty, !FileManager.default.fileExists(atPath: folder.path) else { return }
    let paths = earlier.map(\.path).joined(separator: " and ")
    reportIssue(
      """
      \(kind) \(name): \(paths) \(earlier.count == 1 ? "holds" : "hold") data an earlier Lunar kept under the name \(name); \
      a \(kind)'s data now lives in a folder tied to the \(kind)'s own folder, \(folder.path), and starts empty there. \
      If that data is this \(kind)'s, move the files into \(folder.path) (Lunar does not, since \(reason)).
      """,
      severity: .warning)
  }
}
