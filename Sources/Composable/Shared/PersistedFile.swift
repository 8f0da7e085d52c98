import Foundation
import IssueReporting

/// Loading and saving the files behind persisted shared values, with the reporting rules of
/// ``SharedKey``: a missing file is silent; an unreadable or corrupt one is reported as a warning
/// (a non-fatal issue: it does not fail a test) and a corrupt one is renamed aside, never overwritten.
enum PersistedFile {
  /// The file's data, or `nil` when it is missing, unreadable, or does not satisfy `isValid` (then it
  /// is renamed to `<name>.corrupt-<milliseconds since 1970>`).
  static func load(_ url: URL, from storage: FileStorage, isValid: (Data) -> Bool) -> Data? {
    let data: Data?
    do {
      data = try storage.load(url)
    } catch {
      warn("Could not read \(url.path): \(error). Using the default value.")
      return nil
    }
    guard let data else { return nil }
    if isValid(data) { return data }
    keepAside(url, in: storage)
    return nil
  }

  /// Renames a corrupt file aside and reports it.
  static func keepAside(_ url: URL, in storage: FileStorage) {
    let stamp = Int(Date().timeIntervalSince1970 * 1000)
    let newName = "\(url.lastPathComponent).corrupt-\(stamp)"
    do {
      let moved = try storage.moveAside(url, newName)
      warn(
        """
        \(url.path) is corrupt; using the default value. The file was kept as \(moved.path).
        """
      )
    } catch {
      warn("\(url.path) is corrupt, and could not be renamed aside: \(error). Using the default value.")
    }
  }

  static func save(_ data: Data, to url: URL, in storage: FileStorage) {
    do {
      try storage.save(data, url)
    } catch {
      warn("Could not save \(url.path): \(error). The change is kept in memory only.")
    }
  }

  static func warn(_ message: String) {
    reportIssue(message, severity: .warning)
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return encoder
  }()
}
