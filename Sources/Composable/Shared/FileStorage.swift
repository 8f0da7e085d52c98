import ConcurrencyExtras
import Dependencies
import Foundation

/// Where persisted shared values are read and written: the real file system, or memory in tests.
///
/// It is the `defaultFileStorage` dependency. A ``TestStore`` gives each test a fresh in-memory one,
/// so tests never touch the disk and never see each other's files:
///
/// ```swift
/// let store = TestStore(initialState: Feature.State()) {
///   Feature()
/// } withDependencies: {
///   $0.defaultFileStorage = .inMemory(["/tmp/settings.json": Data(#"{"theme":"dark"}"#.utf8)])
/// }
/// ```
///
/// > Important: `save` must be atomic — readers see the old file or the new one, never a part of it.
/// > ``fileSystem`` writes a temporary file in the same folder and renames it over the target.
public struct FileStorage: Sendable {
  /// Reads a file; `nil` when nothing is there.
  ///
  /// > Important: Throw when something is there but cannot be read (no permission, a folder in
  /// > its place, an I/O error). Returning `nil` would make the value start as its default and the
  /// > next save overwrite what could not be read.
  public var load: @Sendable (URL) throws -> Data?
  /// Replaces a file's contents atomically, creating its folder if needed.
  public var save: @Sendable (Data, URL) throws -> Void
  /// Renames a file to a new name in the same folder (a corrupt file kept aside); returns the new URL.
  public var moveAside: @Sendable (URL, String) throws -> URL
  /// Claims a folder for this process for as long as it runs, so that a second process working in
  /// the same folder is refused instead of overwriting the first one's files
  /// (``FolderInUseError``). Claiming a folder again is free.
  ///
  /// ``fileSystem`` takes an advisory lock on a `.lock` file in the folder; ``inMemory(_:)`` does
  /// nothing. ``FileStorageKey`` claims nothing by itself: call this for a folder you own.
  public var claim: @Sendable (URL) throws -> Void
  /// Which storage this is: the same file in two storages is two shared values. Each storage made
  /// with ``init(load:save:moveAside:claim:)`` or ``inMemory(_:)`` is a storage of its own; copies
  /// of it are the same storage.
  let identity = FileStorageIdentity()

  /// A storage of your own (each one made is a storage of its own: the same file in two of them is
  /// two shared values).
  public init(
    load: @escaping @Sendable (URL) throws -> Data?,
    save: @escaping @Sendable (Data, URL) throws -> Void,
    moveAside: @escaping @Sendable (URL, String) throws -> URL,
    claim: @escaping @Sendable (URL) throws -> Void = { _ in }
  ) {
    self.load = load
    self.save = save
    self.moveAside = moveAside
    self.claim = claim
  }

  /// The real file system. Loading removes temporary files left by an interrupted save.
  public static let fileSystem = FileStorage(
    load: { url in
      AtomicFile.removeLeftovers(of: url)
      return try AtomicFile.read(url)
    },
    save: { data, url in try AtomicFile.write(data, to: url) },
    moveAside: { url, newName in
      let target = url.deletingLastPathComponent().appendingPathComponent(newName)
      // NB: rename(2) replaces what is at the target: never replace a file kept aside earlier.
      guard !FileManager.default.fileExists(atPath: target.path) else { throw FileSystemError(code: EEXIST) }
      guard rename(url.path, target.path) == 0 else { throw FileSystemError(code: errno) }
      return target
    },
    claim: { folder in try FolderClaim.claim(folder) }
  )

  /// A file system in memory, starting with `files` (keyed by path). Each call makes a new one.
  public static func inMemory(_ files: [String: Data] = [:]) -> FileStorage {
    let files = LockIsolated(files)
    return FileStorage(
      load: { url in files[url.path] },
      save: { data, url in files.withValue { $0[url.path] = data } },
      moveAside: { url, newName in
        let target = url.deletingLastPathComponent().appendingPathComponent(newName)
        files.withValue {
          $0[target.path] = $0[url.path]
          $0[url.path] = nil
        }
        return target
      }
    )
  }
}

/// The identity of a ``FileStorage``: an object, compared by address.
final class FileStorageIdentity: Sendable {}

private enum DefaultFileStorageKey: DependencyKey {
  static let liveValue = FileStorage.fileSystem
  static var testValue: FileStorage { .inMemory() }
}

extension DependencyValues {
  /// Where `.fileStorage` and `.appStorage` shared values are persisted. In-memory in tests.
  public var defaultFileStorage: FileStorage {
    get { self[DefaultFileStorageKey.self] }
    set { self[DefaultFileStorageKey.self] = newValue }
  }
}
