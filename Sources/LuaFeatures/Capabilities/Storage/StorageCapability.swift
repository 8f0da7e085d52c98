import Composable
import Foundation
import LuaBridge

extension LuaCapability {
  /// `deps.storage`: a small key-value store of the feature's own, kept in one JSON document.
  ///
  /// ```lua
  /// return fx.run(function(send)
  ///   deps.storage.set("backup", rows)                 -- any data; nil removes the key
  ///   local rows = deps.storage.get("backup")          -- nil when there is none
  ///   for _, key in ipairs(deps.storage.keys()) do … end
  ///   deps.storage.delete("backup")
  /// end)
  /// ```
  ///
  /// The four are asynchronous (they read and write a file): call them inside `fx.run`. Keys are
  /// non-empty strings. A value that JSON cannot hold (NaN, text that is not UTF-8, nesting deeper
  /// than the data limit) is refused when it is set, and the document keeps what it had; a document
  /// that cannot be read is never written over (see ``StorageDocument``).
  ///
  /// > Important: Every change rewrites the whole document: it suits settings, drafts and backups
  /// > of a few megabytes, not a database.
  ///
  /// The document is reached through a ``LuaDataFolder`` over its folder: a symlink in its place
  /// that leads out of the folder is refused (the document is then never written over), and with
  /// a `quota`, a `set` that would take the owner's documents over it fails, naming the sizes, and
  /// the document keeps what it had.
  ///
  /// - Parameters:
  ///   - file: The feature's document, e.g. `~/.local/share/lunar/storage/<feature>.json`.
  ///   - fileStorage: Where it is read and written (in memory in tests).
  ///   - quota: The bytes its owner's documents may take together (`nil`: no limit).
  public static func storage(file: URL, fileStorage: FileStorage = .fileSystem, quota: LuaDataQuota? = nil) -> LuaCapability {
    let folder = LuaDataFolder(file.deletingLastPathComponent(), storage: fileStorage, quota: quota)
    let document = StorageDocument(file: file, storage: folder.fileStorage)
    @Sendable func key(_ arguments: [LuaValue], _ name: String) throws -> LuaString {
      guard case let .string(key)? = arguments.first, !key.bytes.isEmpty else {
        throw LuaDependencyError(name: name, message: "expects a key (a non-empty string), got \((arguments.first ?? .nil).luaType)")
      }
      return key
    }
    return LuaCapability(name: "storage", functions: [
      "storage.get": .async { arguments in
        try LuaDependencies.checkCount(arguments, 1, "storage.get")
        return try document.get(key(arguments, "storage.get"))
      },
      "storage.set": .async { arguments in
        try LuaDependencies.checkCount(arguments, 2, "storage.set")
        try document.set(key(arguments, "storage.set"), arguments.count > 1 ? arguments[1] : .nil)
        return .nil
      },
      "storage.delete": .async { arguments in
        try LuaDependencies.checkCount(arguments, 1, "storage.delete")
        try document.set(key(arguments, "storage.delete"), .nil)
        return .nil
      },
      "storage.keys": .async { arguments in
        try LuaDependencies.checkCount(arguments, 0, "storage.keys")
        return .array(try document.keys().map(LuaValue.string))
      },
    ])
  }

  /// Where a feature's `deps.storage` document is kept by default: `<data>/lunar/storage/<name>.json`,
  /// where `<data>` is `$XDG_DATA_HOME`, else `~/.local/share`.
  public static func defaultStorageFile(for name: String) -> URL {
    let environment = ProcessInfo.processInfo.environment
    let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
    return base.appendingPathComponent("lunar/storage").appendingPathComponent(name + ".json")
  }
}
