import Composable
import Foundation
import IssueReporting
import LuaBridge

/// The document behind `deps.storage`: one JSON object per feature, read and written with
/// ``LuaJSONDecoder`` and ``LuaJSONEncoder``, under one rule: what is on disk is never replaced
/// unless this process has seen that it may be.
///
/// - A file that **cannot be read** (no permission, a folder in its place) makes `load()` and
///   `save()` fail with the file and the cause; it is left alone.
/// - A file that **cannot be used** (not JSON, a key twice, nested too deep) is renamed to
///   `<name>.corrupt-<milliseconds>`, reported as a warning, and the store starts empty.
/// - A value that **cannot be saved** (text that is not UTF-8, NaN, nested too deep) makes `set`
///   fail, naming the key and the path in the value; the file is left as it was.
/// - Its folder is claimed for this process (``FileStorage/claim``) on first use: a second host on
///   the same data folder fails with the folder and the other process, and loses nothing.
///
/// Each change rewrites the document atomically (a temporary file renamed over it): a crash leaves
/// the old document or the new one.
final class StorageDocument: @unchecked Sendable {
  let file: URL
  let storage: FileStorage
  private let lock = NSLock()
  /// The entries, once read (or found missing, or renamed aside): then the file may be replaced.
  private var entries: [LuaString: LuaValue]?

  init(file: URL, storage: FileStorage) {
    self.file = file
    self.storage = storage
  }

  /// The value under `key`, or `.nil`.
  func get(_ key: LuaString) throws -> LuaValue {
    try lock.withLock { try current()[key] ?? .nil }
  }

  /// The keys, in byte order.
  func keys() throws -> [LuaString] {
    try lock.withLock { try current().keys.sorted() }
  }

  /// Stores `value` under `key` (`.nil` removes it) and writes the document.
  func set(_ key: LuaString, _ value: LuaValue) throws {
    try lock.withLock {
      var next = try current()
      // NB: not `next[key] = value.isNil ? nil : value`: LuaValue is ExpressibleByNilLiteral, so
      //     that `nil` is `.nil`, stored.
      if value.isNil { next.removeValue(forKey: key) } else { next[key] = value }
      let bytes: [UInt8]
      do {
        bytes = try LuaJSONEncoder(prettyPrinted: true).encode(.table(next), root: "storage") + [0x0A]
      } catch {
        throw StorageError("cannot save \"\(key)\" to \(file.path): \(error)")
      }
      do {
        try storage.save(Data(bytes), file)
      } catch let error as LuaDataQuotaError {
        throw StorageError("cannot save \"\(key)\" to \(file.path): \(error); the document keeps what it had")
      } catch {
        throw StorageError("cannot write \(file.path): \(error)")
      }
      entries = next
    }
  }

  private func current() throws -> [LuaString: LuaValue] {
    if let entries { return entries }
    do {
      try storage.claim(file.deletingLastPathComponent())
    } catch {
      throw StorageError("\(error)")
    }
    let read: [LuaString: LuaValue]
    switch try self.read() {
    case nil, .array([])?: read = [:]
    case let .table(fields)?: read = fields
    case let other?:
      throw StorageError("\(file.path) holds \(other.luaType), not an object of keys; it is left as it is")
    }
    entries = read
    return read
  }

  /// The document on disk, or `nil` when there is none (or it was renamed aside).
  private func read() throws -> LuaValue? {
    let data: Data?
    do {
      data = try storage.load(file)
    } catch {
      throw StorageError("\(file.path) cannot be read (\(error)); it is left as it is, and nothing is saved over it")
    }
    guard let data else { return nil }
    do {
      return try LuaJSONDecoder().decode(Array(data))
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
      reportIssue(
        "\(file.path) cannot be used (\(error)); it was renamed to \(moved.path), and the store starts empty.",
        severity: .warning
      )
      return nil
    }
  }
}

/// Why `deps.storage` failed; Lua sees `deps.storage.set failed: <message>`.
struct StorageError: Error, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}
