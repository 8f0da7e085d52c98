import Foundation
import IssueReporting

/// Loading and saving the files behind persisted shared values, with the rules of ``SharedKey``:
///
/// - a missing file is silent: the default is used;
/// - a file that cannot be read is left alone and throws ``SharedPersistenceError/Kind/unreadable``
///   (the value is then never saved, so it is never overwritten);
/// - a file that can be read but not used (not valid, not of the expected shape) is renamed to
///   `<name>.corrupt-<milliseconds since 1970>`, reported as a warning, and the default is used; if
///   it cannot be renamed it is left alone, as an unreadable one.
enum PersistedFile {
  /// The decoded file, or `nil` when it is missing or was renamed aside.
  static func load<Value>(_ url: URL, from storage: FileStorage, decode: (Data) throws -> Value) throws -> Value? {
    let data: Data?
    do {
      data = try storage.load(url)
    } catch {
      throw SharedPersistenceError(.unreadable, url: url, cause: error)
    }
    guard let data else { return nil }
    do {
      return try decode(data)
    } catch {
      try keepAside(url, in: storage, because: error)
      return nil
    }
  }

  /// Renames a file that cannot be used aside and reports it.
  static func keepAside(_ url: URL, in storage: FileStorage, because reason: any Error) throws {
    let stamp = Int(Date().timeIntervalSince1970 * 1000)
    let moved: URL
    do {
      moved = try storage.moveAside(url, "\(url.lastPathComponent).corrupt-\(stamp)")
    } catch {
      throw SharedPersistenceError(
        .unreadable, url: url,
        cause: FileSystemError("it cannot be used (\(reason)), and renaming it aside failed (\(error))")
      )
    }
    warn("\(url.path) cannot be used (\(reason)); it was renamed to \(moved.path), and the default value is used.")
  }

  static func save(_ data: Data, to url: URL, in storage: FileStorage) throws {
    do {
      try storage.save(data, url)
    } catch {
      throw SharedPersistenceError(.unwritable, url: url, cause: error)
    }
  }

  static func warn(_ message: String) {
    reportIssue(message, severity: .warning)
  }

  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return encoder
  }
}
