import Foundation

/// Atomic file replacement: write a temporary file next to the target, flush it, rename it over the
/// target. `rename(2)` within one folder is atomic, so a crash at any point leaves the old file or
/// the new one — at worst plus a temporary file, which the next load removes.
enum AtomicFile {
  /// The prefix of temporary files for `url`: `.<name>.tmp-`.
  static func temporaryPrefix(of url: URL) -> String { ".\(url.lastPathComponent).tmp-" }

  static func write(_ data: Data, to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temporary = folder.appendingPathComponent(temporaryPrefix(of: url) + UUID().uuidString)
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
    }
    do {
      let handle = try FileHandle(forWritingTo: temporary)
      defer { try? handle.close() }
      try handle.write(contentsOf: data)
      // NB: Flush before renaming, or a power loss may leave the new name pointing at empty blocks.
      try handle.synchronize()
      guard rename(temporary.path, url.path) == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }

  /// Removes temporary files an interrupted ``write(_:to:)`` left next to `url`.
  static func removeLeftovers(of url: URL) {
    let folder = url.deletingLastPathComponent()
    let prefix = temporaryPrefix(of: url)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    for name in names where name.hasPrefix(prefix) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }
}
