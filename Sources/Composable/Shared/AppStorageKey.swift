import Foundation

/// A ``SharedKey`` for simple values (numbers, strings, booleans, small `Codable` values) kept in the
/// app's key-value store: one JSON object in `app-storage.json` in the user's data folder
/// (`$XDG_DATA_HOME/lunar`, else `~/.local/share/lunar`), like `UserDefaults` on Apple platforms.
///
/// ```swift
/// let launchCount = Shared(wrappedValue: 0, .appStorage("launchCount"))
/// ```
///
/// A missing entry gives the default value, which is written to the store at once (as `@AppStorage`
/// registers its default), so every reader of the store sees it. An entry that cannot be decoded as `Value` gives the
/// default and a warning (and the next change replaces it). A store file that is not a JSON object
/// is renamed aside (`app-storage.json.corrupt-<timestamp>`) and reported. A store file that cannot
/// be read is left alone and reported: values loaded from it are not saved, and no entry is saved
/// while it cannot be read (saving rewrites the whole file).
///
/// > Important: Every change rewrites the whole store file: it is for settings, not for data sets —
/// > use ``FileStorageKey`` for those.
public struct AppStorageKey<Value: Codable>: SharedKey {
  /// The entry's name in the store.
  public let key: String
  /// The store file.
  public let url: URL

  public var id: String { "appStorage:\(url.standardizedFileURL.path):\(key)" }

  public func load(default defaultValue: Value, from storage: FileStorage) throws -> Value {
    try AppStorageKeyLock.lock.withLock {
      var entries = try Self.entries(at: url, in: storage)
      guard let entry = entries[key] else {
        // NB: As `UserDefaults` registration does for `@AppStorage`: the default is written at once,
        //     so other readers of the store (another process, a Lua feature) see the same value.
        do {
          try Self.write(defaultValue, as: key, into: &entries, at: url, in: storage)
        } catch {
          PersistedFile.warn("The default of the app storage entry \"\(key)\" could not be saved: \(error)")
        }
        return defaultValue
      }
      do {
        let data = try JSONSerialization.data(withJSONObject: entry, options: .fragmentsAllowed)
        return try JSONDecoder().decode(Value.self, from: data)
      } catch {
        PersistedFile.warn(
          "The app storage entry \"\(key)\" is not a \(Value.self); using the default value."
        )
        return defaultValue
      }
    }
  }

  public func save(_ value: Value, to storage: FileStorage) throws {
    try AppStorageKeyLock.lock.withLock {
      // NB: read again: another key may have saved since, and a file that cannot be read now must
      //     not be replaced by this one entry.
      var entries = try Self.entries(at: url, in: storage)
      try Self.write(value, as: key, into: &entries, at: url, in: storage)
    }
  }

  /// Sets `key` to `value` in `entries` and saves the whole store. Call under the store's lock.
  private static func write(
    _ value: Value, as key: String, into entries: inout [String: Any], at url: URL, in storage: FileStorage
  ) throws {
    let data: Data
    do {
      let encoded = try PersistedFile.encoder().encode(value)
      entries[key] = try JSONSerialization.jsonObject(with: encoded, options: .fragmentsAllowed)
      data = try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys])
    } catch {
      throw SharedPersistenceError(.unencodable, url: url, cause: error)
    }
    try PersistedFile.save(data, to: url, in: storage)
  }

  private static func entries(at url: URL, in storage: FileStorage) throws -> [String: Any] {
    try PersistedFile.load(url, from: storage) { data in
      guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw FileSystemError("it is not a JSON object")
      }
      return object
    } ?? [:]
  }

  /// The store file in the user's data folder: `$XDG_DATA_HOME/lunar/app-storage.json`, else
  /// `~/.local/share/lunar/app-storage.json`.
  public static var defaultURL: URL {
    let environment = ProcessInfo.processInfo.environment
    let base =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser
      .appendingPathComponent(".local/share")
    return base.appendingPathComponent("lunar/app-storage.json")
  }
}

// NB: One lock for every app storage entry: saving rewrites the whole file, so two keys saved at
//     once must not interleave their read-modify-write.
private enum AppStorageKeyLock {
  static let lock = NSLock()
}

extension SharedKey {
  /// A simple value kept under `key` in the app's key-value store. See ``AppStorageKey``.
  ///
  /// - Parameter url: The store file; the user's data folder by default.
  public static func appStorage<V: Codable>(
    _ key: String, url: URL = AppStorageKey<V>.defaultURL
  ) -> Self where Self == AppStorageKey<V> {
    AppStorageKey(key: key, url: url)
  }
}
