import Composable
import Foundation

/// The one way a feature's persisted data reaches the file system: a ``FileStorage`` over one
/// folder, through which `deps.storage` and `lunar.shared` files are read, written, renamed aside
/// and claimed.
///
/// ```swift
/// let data = LuaDataFolder(folder, storage: .fileSystem, quota: quota)
/// data.fileStorage   // every call checked: inside `folder`, and within `quota`
/// ```
///
/// Every call is checked before it reaches `storage`:
///
/// - **Inside the folder.** The file must be written under the folder, and resolve inside it: a
///   path with `..`, or a symlink (the file's, or a folder's on the way) that leads out of it, is
///   refused as `deps.files` refuses one (``ConfinedFolder``). A document that cannot be read this
///   way is never written over.
/// - **Within the quota.** A save that would take the owner's documents over its ``LuaDataQuota``
///   is refused before anything is written: the file keeps its previous document.
public struct LuaDataFolder: Sendable {
  /// The folder.
  public let url: URL
  /// The storage every checked call goes to.
  public let base: FileStorage
  /// The quota its saves count against, if any.
  public let quota: LuaDataQuota?
  /// ``base``, with every call checked.
  public let fileStorage: FileStorage

  /// A folder whose files are read and written in `storage`, within `quota`.
  public init(_ url: URL, storage: FileStorage, quota: LuaDataQuota? = nil) {
    let folder = ConfinedFolder(root: url, name: url.standardizedFileURL.path)
    self.url = folder.root
    self.base = storage
    self.quota = quota
    @Sendable func check(_ file: URL) throws(LuaDataFolderError) {
      guard let relative = folder.relativePath(of: file) else {
        throw LuaDataFolderError(description: "\(file.path) is outside \(folder.root.path)")
      }
      do {
        _ = try folder.resolve(relative)
      } catch {
        throw LuaDataFolderError(description: "\(error)")
      }
    }
    self.fileStorage = FileStorage(
      load: { file in
        try check(file)
        let data = try storage.load(file)
        quota?.record(data?.count, for: file)
        return data
      },
      save: { data, file in
        try check(file)
        let previous = try quota?.reserve(data.count, for: file)
        do {
          try storage.save(data, file)
        } catch {
          quota?.record(previous, for: file)
          throw error
        }
      },
      moveAside: { file, newName in
        try check(file)
        try check(file.deletingLastPathComponent().appendingPathComponent(newName))
        let moved = try storage.moveAside(file, newName)
        quota?.record(nil, for: file)
        return moved
      },
      claim: { claimed in
        try check(claimed)
        try storage.claim(claimed)
      }
    )
  }
}

/// A file a feature's data may not reach: outside its data folder, or through a symlink leading out.
public struct LuaDataFolderError: Error, Sendable, CustomStringConvertible {
  public let description: String
}
