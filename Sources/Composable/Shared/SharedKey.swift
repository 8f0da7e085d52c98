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
/// file system in tests.
///
/// > Important: ``load(default:from:)`` never fails: when the stored value is missing it returns the
/// > default, and when it is unreadable it reports an issue (a warning) and returns the default.
public protocol SharedKey<Value>: Sendable {
  /// The type of the shared value.
  associatedtype Value

  /// The identity of the value in a ``SharedRegistry``, e.g. `"inMemory:count"`.
  var id: String { get }

  /// Loads the stored value, or returns `defaultValue`.
  func load(default defaultValue: Value, from storage: FileStorage) -> Value

  /// Stores `value`; called after every change, under the value's lock.
  func save(_ value: Value, to storage: FileStorage)
}
