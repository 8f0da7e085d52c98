import Foundation

/// A ``SharedKey`` that persists a `Codable` value as a JSON file.
///
/// ```swift
/// let todos = Shared(wrappedValue: [], .fileStorage(URL(filePath: "/home/me/.local/share/todos.json")))
/// ```
///
/// Every change is written at once and atomically (a temporary file renamed over the target), so a
/// crash mid-write leaves the previous file. A missing file gives the default value; a corrupt one gives
/// the default, is reported as a warning, and is renamed to `<name>.corrupt-<timestamp>`.
///
/// > Important: Writes happen on every change, under the value's lock, on the thread that changed it:
/// > keep file-backed values small, or change them in batches inside one `withLock`.
public struct FileStorageKey<Value: Codable>: SharedKey {
  /// The file the value is stored in.
  public let url: URL

  public var id: String { "fileStorage:\(url.standardizedFileURL.path)" }

  public func load(default defaultValue: Value, from storage: FileStorage) -> Value {
    let decoder = JSONDecoder()
    var decoded: Value?
    _ = PersistedFile.load(url, from: storage) { data in
      decoded = try? decoder.decode(Value.self, from: data)
      return decoded != nil
    }
    return decoded ?? defaultValue
  }

  public func save(_ value: Value, to storage: FileStorage) {
    do {
      PersistedFile.save(try PersistedFile.encoder.encode(value), to: url, in: storage)
    } catch {
      PersistedFile.warn("Could not encode the value for \(url.path): \(error).")
    }
  }
}

extension SharedKey {
  /// A value persisted as JSON in the file at `url`. See ``FileStorageKey``.
  public static func fileStorage<V: Codable>(_ url: URL) -> Self where Self == FileStorageKey<V> {
    FileStorageKey(url: url)
  }
}
