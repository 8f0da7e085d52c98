/// A ``SharedKey`` that shares a value by name without persisting it: it lives as long as the
/// ``SharedRegistry`` does (the process, or one test).
///
/// ```swift
/// let count = Shared(wrappedValue: 0, .inMemory("count"))
/// ```
public struct InMemoryKey<Value>: SharedKey {
  /// The name the value is shared under.
  public let key: String

  public var id: String { "inMemory:\(key)" }

  public func load(default defaultValue: Value, from storage: FileStorage) -> Value { defaultValue }

  public func save(_ value: Value, to storage: FileStorage) {}

  /// `false`: the value lives in the ``SharedRegistry`` only, whatever the file storage.
  public var isPersisted: Bool { false }
}

extension SharedKey {
  /// A value shared by name, in memory only. See ``InMemoryKey``.
  ///
  /// > Important: The same name must always be used with the same type.
  public static func inMemory<V>(_ key: String) -> Self where Self == InMemoryKey<V> {
    InMemoryKey(key: key)
  }
}
