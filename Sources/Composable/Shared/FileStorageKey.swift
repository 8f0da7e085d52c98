import Foundation

/// A ``SharedKey`` that persists a value in a file: JSON for `Codable` values, or your own format.
///
/// ```swift
/// let todos = Shared(wrappedValue: [], .fileStorage(URL(filePath: "/home/me/.local/share/todos.json")))
/// let notes = Shared(wrappedValue: "", .fileStorage(url, decode: { String(decoding: $0, as: UTF8.self) },
///                                                     encode: { Data($0.utf8) }))
/// ```
///
/// Every change is written at once and atomically (a temporary file, flushed, renamed over the
/// target), so a crash mid-write leaves the previous file.
///
/// - A **missing** file gives the default value.
/// - A file that **cannot be read** (no permission, a folder in its place, an I/O error) gives the
///   default value, is reported as an error and kept as ``Shared/loadError``, and is left alone:
///   changes to the value are not saved, since saving would overwrite it.
/// - A file that **cannot be decoded** gives the default value, is reported as a warning, and is
///   renamed to `<name>.corrupt-<timestamp>`; later changes are saved to a new file.
/// - A value that **cannot be encoded** (a NaN through `JSONEncoder`) or a **failed write** (a full
///   disk) is reported as an error and kept as ``Shared/saveError``; the change stays in memory,
///   and the next change that can be saved is. Use ``Shared/withLockIfSaved(_:)`` to refuse such
///   a change instead.
///
/// > Important: Writes happen on every change, under the value's lock, on the thread that changed it:
/// > keep file-backed values small, or change them in batches inside one `withLock`.
public struct FileStorageKey<Value>: SharedKey {
  /// The file the value is stored in.
  public let url: URL
  private let coding: any FileCoding<Value>

  /// A key for the file at `url`, read with `decode` and written with `encode`.
  public init(
    url: URL, decode: @escaping @Sendable (Data) throws -> Value, encode: @escaping @Sendable (Value) throws -> Data
  ) {
    self.url = url
    self.coding = ClosureCoding(read: decode, write: encode)
  }

  public var id: String { "fileStorage:\(url.standardizedFileURL.path)" }

  public func load(default defaultValue: Value, from storage: FileStorage) throws -> Value {
    try PersistedFile.load(url, from: storage, decode: coding.decode) ?? defaultValue
  }

  public func save(_ value: Value, to storage: FileStorage) throws {
    let data: Data
    do {
      data = try coding.encode(value)
    } catch {
      throw SharedPersistenceError(.unencodable, url: url, cause: error)
    }
    try PersistedFile.save(data, to: url, in: storage)
  }
}

extension FileStorageKey where Value: Codable {
  /// A key for a `Codable` value stored as JSON (pretty-printed, sorted keys) at `url`.
  public init(url: URL) {
    self.url = url
    self.coding = JSONCoding<Value>()
  }
}

/// How a ``FileStorageKey`` turns its value into bytes and back.
private protocol FileCoding<Value>: Sendable {
  associatedtype Value
  func decode(_ data: Data) throws -> Value
  func encode(_ value: Value) throws -> Data
}

// NB: a type rather than closures: closures would capture `Value`'s metatype, which is not Sendable.
private struct JSONCoding<Value: Codable>: FileCoding {
  func decode(_ data: Data) throws -> Value { try JSONDecoder().decode(Value.self, from: data) }
  func encode(_ value: Value) throws -> Data { try PersistedFile.encoder().encode(value) }
}

private struct ClosureCoding<Value>: FileCoding {
  let read: @Sendable (Data) throws -> Value
  let write: @Sendable (Value) throws -> Data

  func decode(_ data: Data) throws -> Value { try read(data) }
  func encode(_ value: Value) throws -> Data { try write(value) }
}

extension SharedKey {
  /// A `Codable` value persisted as JSON in the file at `url`. See ``FileStorageKey``.
  public static func fileStorage<V: Codable>(_ url: URL) -> Self where Self == FileStorageKey<V> {
    FileStorageKey(url: url)
  }

  /// A value persisted in the file at `url` in a format of your own. See ``FileStorageKey``.
  ///
  /// - Parameters:
  ///   - decode: Reads the file's bytes; throw when they are not a valid value (the file is then
  ///     renamed aside and the default used).
  ///   - encode: Writes a value; throw when it cannot be saved.
  public static func fileStorage<V>(
    _ url: URL, decode: @escaping @Sendable (Data) throws -> V, encode: @escaping @Sendable (V) throws -> Data
  ) -> Self where Self == FileStorageKey<V> {
    FileStorageKey(url: url, decode: decode, encode: encode)
  }
}
