/// How a ``Shared`` value is found and persisted: in memory, in a file, in the app's key-value store,
/// or a strategy of your own.
///
/// ```swift
/// let count = Shared(wrappedValue: 0, .inMemory("count"))
/// let settings = Shared(wrappedValue: Settings(), .fileStorage(url))
/// let name = Shared(wrappedValue: "", .appStorage("name"))
/// ```
///
/// Every `Shared` created with keys of the same ``id`` in one ``SharedRegistry`` refers to the same value.
/// Persisting keys read and write through the `defaultFileStorage` dependency, which is an in-memory
/// file system in tests; the same ``id`` in two file storages is two values.
///
/// > Important: Loading must never lose what is stored. When nothing is stored, return the
/// > default. When something is stored but cannot be read, **throw**: the value then starts as the
/// > default, the error is reported and kept (``Shared/loadError``), and the value is never saved,
/// > since saving would overwrite what could not be read.
public protocol SharedKey<Value>: Sendable {
  /// The type of the shared value.
  associatedtype Value

  /// The identity of the value in a ``SharedRegistry``, e.g. `"inMemory:count"`.
  var id: String { get }

  /// Loads the stored value, or returns `defaultValue` when nothing is stored.
  ///
  /// - Throws: When something is stored but cannot be read.
  func load(default defaultValue: Value, from storage: FileStorage) throws -> Value

  /// Stores `value`; called after every change, under the value's lock.
  ///
  /// - Throws: When it cannot be stored (it cannot be encoded, the write failed).
  func save(_ value: Value, to storage: FileStorage) throws

  /// Whether the value is kept in the file storage it is loaded from: then the same ``id`` in
  /// two storages is two values. `true` unless the key keeps its value in memory only.
  var isPersisted: Bool { get }
}

extension SharedKey {
  public var isPersisted: Bool { true }
}
