import Composable
import Foundation
import LuaBridge
import LuaFeatures

/// `deps.storage.save(value)` and `deps.storage.load()`: one JSON document per feature, kept in the
/// user's data folder (`$XDG_DATA_HOME/lunar/<feature folder>.json`, by default
/// `~/.local/share/lunar/…`), or in the temporary folder when there is no home. `LUNAR_STORAGE`
/// names another file.
///
/// `load()` answers `{}` (an empty array) until something was saved. Both are asynchronous: call
/// them inside `fx.run`. What is saved is never lost silently (see ``StorageDocument``).
enum StorageClient {
  static func register(in dependencies: inout LuaDependencies, root: URL) {
    let document = StorageDocument(file: defaultFile(for: root), storage: .fileSystem)
    dependencies.register("storage.save", .async { arguments in
      guard arguments.count == 1 else {
        throw StorageError("takes 1 argument (the value to save), got \(arguments.count)")
      }
      try document.save(arguments[0])
      return .nil
    })
    dependencies.register("storage.load", .async { arguments in
      guard arguments.isEmpty else {
        throw StorageError("takes no argument, got \(arguments.count)")
      }
      return try document.load()
    })
  }

  /// Where a feature in `root` keeps its document.
  static func defaultFile(for root: URL) -> URL {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["LUNAR_STORAGE"], !path.isEmpty { return URL(fileURLWithPath: path) }
    let name = root.standardizedFileURL.lastPathComponent + ".json"
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
      return URL(fileURLWithPath: data).appendingPathComponent("lunar").appendingPathComponent(name)
    }
    if let home = environment["HOME"], !home.isEmpty {
      return URL(fileURLWithPath: home).appendingPathComponent(".local/share/lunar").appendingPathComponent(name)
    }
    return FileManager.default.temporaryDirectory.appendingPathComponent("lunar").appendingPathComponent(name)
  }
}

/// Why `deps.storage` failed; Lua sees `deps.storage.save failed: <message>`.
struct StorageError: Error, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}
