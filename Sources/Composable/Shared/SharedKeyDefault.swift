/// A ``SharedKey`` that carries its default value, so that a `@Shared` using it needs none.
///
/// Declare it once, where the key is named:
///
/// ```swift
/// extension SharedKey where Self == AppStorageKey<Int>.Default {
///   static var launchCount: Self {
///     Self[.appStorage("launchCount"), default: 0]
///   }
/// }
///
/// @Shared(.launchCount) var launchCount        // 0 when nothing is stored
/// @Shared(.launchCount) var other = 10         // a default of its own for this use
/// ```
///
/// The default is computed only when the value is first loaded and nothing is stored.
///
/// > Important: As with any key, the first `Shared` to load the value decides its default:
/// > later ones refer to the value already loaded and ignore theirs.
public struct SharedKeyDefault<Base: SharedKey>: SharedKey {
  /// The key the value is found and persisted by.
  public let base: Base
  private let defaultValue: @Sendable () -> Base.Value

  /// The key `key` with the default `value`.
  public static subscript(
    _ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, defaultValue: value)
  }

  /// The default value, computed afresh.
  public var initialValue: Base.Value { defaultValue() }

  public var id: String { base.id }

  public var isPersisted: Bool { base.isPersisted }

  public func load(default defaultValue: Base.Value, from storage: FileStorage) throws -> Base.Value {
    try base.load(default: defaultValue, from: storage)
  }

  public func save(_ value: Base.Value, to storage: FileStorage) throws {
    try base.save(value, to: storage)
  }
}

extension SharedKey {
  /// This key with a default value: `AppStorageKey<Int>.Default[.appStorage("count"), default: 0]`.
  /// See ``SharedKeyDefault``.
  public typealias Default = SharedKeyDefault<Self>
}

extension Shared {
  /// Creates, or finds, the shared value persisted by a key that carries its default.
  ///
  /// ```swift
  /// @Shared(.launchCount) var launchCount
  /// ```
  public init<Key: SharedKey<Value>>(_ key: SharedKeyDefault<Key>) {
    self.init(wrappedValue: key.initialValue, key)
  }
}

extension SharedReader {
  /// Creates, or finds, the shared value persisted by a key that carries its default, read-only.
  ///
  /// ```swift
  /// @SharedReader(.launchCount) var launchCount
  /// ```
  public init<Key: SharedKey<Value>>(_ key: SharedKeyDefault<Key>) {
    self.init(Shared(key))
  }
}
