import Composable
import Foundation
import IssueReporting
import LuaBridge

/// The document behind `deps.storage`, read and written with ``LuaJSONDecoder`` and
/// ``LuaJSONEncoder``, under one rule: what is on disk is never replaced unless this process has
/// seen that it may be.
///
/// - A file that **cannot be read** (no permission, a folder in its place) makes `load()` and
///   `save()` fail with the file and the cause; it is left alone.
/// - A file that **cannot be used** (not JSON, a key twice, nested too deep) is renamed to
///   `<name>.corrupt-<milliseconds>`, reported as a warning, and `load()` answers `{}`.
/// - A value that **cannot be saved** (text that is not UTF-8, NaN, nested too deep) makes `save()`
///   fail, naming the path in the value; the file is left as it was.
final class StorageDocument: @unchecked Sendable {
  let file: URL
  let storage: FileStorage
  private let lock = NSLock()
  /// Whether the file was seen to be missing, read, or renamed aside: then it may be replaced.
  private var checked = false

  init(file: URL, storage: FileStorage) {
    self.file = file
    self.storage = storage
  }

  func load() throws -> LuaValue {
    try lock.withLock { try read() ?? .array([]) }
  }

  func save(_ value: LuaValue) throws {
    let bytes: [UInt8]
    do {
      bytes = try LuaJSONEncoder(prettyPrinted: true).encode(value, root: "value") + [0x0A]
    } catch {
      throw StorageError("cannot save to \(file.path): \(error)")
    }
    try lock.withLock {
      // NB: a document never loaded may be one that cannot be read: look before replacing it.
      if !checked { _ = try read() }
      do {
        try storage.save(Data(bytes), file)
      } catch {
        throw StorageError("cannot write \(file.path): \(error)")
      }
    }
  }

  /// The document on disk, or `nil` when there is none (or it was renamed aside).
  private func read() throws -> LuaValue? {
    let data: Data?
    do {
      data = try storage.load(file)
    } catch {
      throw StorageError("\(file.path) cannot be read (\(error)); it is left as it is, and nothing is saved over it")
    }
    guard let data else {
      checked = true
      return nil
    }
    do {
      let value = try LuaJSONDecoder().decode(Array(data))
      checked = true
      return value
    } catch {
      let stamp = Int(Date().timeIntervalSince1970 * 1000)
      let moved: URL
      do {
        moved = try storage.moveAside(file, "\(file.lastPathComponent).corrupt-\(stamp)")
      } catch let moveError {
        throw StorageError(
          "\(file.path) cannot be used (\(error)), and renaming it aside failed (\(moveError)); it is left as it is"
        )
      }
      checked = true
      reportIssue(
        "\(file.path) cannot be used (\(error)); it was renamed to \(moved.path), and an empty document is used.",
        severity: .warning
      )
      return nil
    }
  }
}
