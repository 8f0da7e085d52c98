import Foundation

/// A ``SharedKey`` for simple values (numbers, strings, booleans, small `Codable` values) kept in the
/// app's key-value store: one JSON object in `app-storage.json` in the user's data folder
/// (`$XDG_DATA_HOME/lunar`, else `~/.local/share/lunar`), like `UserDefaults` on Apple platforms.
///
/// ```swift
/// let launchCount = Shared(wrappedValue: 0, .appStorage("launchCount"))
/// ```
///
/// A missing entry gives the default value. An entry that cannot be decoded as `Value` gives the
/// default and a warning. A store file that is not a JSON object is renamed aside
/// (`app-storage.json.corrupt-<timestamp>`) and reported.
///
/// > Important: Every change rewrites the whole store file: it is for settings, not for data sets —
/// > use ``FileStorageKey`` for those.
public struct AppStorageKey<Value: Codable>: SharedKey {
  /// The entry's name in the store.
  public let key: String
  /// The store file.
  public let url: URL

  public var id: String { "appStorage:\(url.standardizedFileURL.path):\(key)" }

  public func load(default defaultValue: Value, from storage: FileStorage) -> Value {
    AppStorageKeyLock.lock.withLock {
      guard let entry = Self.entries(at: url, in: storage)[key] else { return defaultValue }
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

  public func save(_ value: Value, to storage: FileStorage) {
    AppStorageKeyLock.lock.withLock {
      do {
        var entries = Self.entries(at: url, in: storage)
        let encoded = try PersistedFile.encoder.encode(value)
        entries[key] = try JSONSerialization.jsonObject(with: encoded, options: .fragmentsAllowed)
        let data = try JSONSerialization.data(
          withJSONObject: entries, options: [.prettyPrinted, .sortedKeys]
        )
        PersistedFile.save(data, to: url, in: storage)
      } catch {
        PersistedFile.warn("Could not save the app storage entry \"\(key)\": \(error).")
      }
    }
  }

  private static func entries(at url: URL, in storage: FileStorage) -> [String: Any] {
    var entries: [String: Any] = [:]
    _ = PersistedFile.load(url, from: storage) { data in
      guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return false }
      entries = object
      return true
    }
    return entries
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
