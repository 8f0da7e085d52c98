import CustomDump
import Dependencies

/// A read-only view of a ``Shared`` value: it sees every change, and cannot make one.
///
/// Hand a child feature a reader when it must show a value it has no business changing:
///
/// ```swift
/// struct Child: Reducer {
///   struct State: Equatable {
///     @SharedReader var count: Int
///   }
///   …
/// }
/// // The parent, which owns the value:
/// state.child = Child.State(count: SharedReader(state.$count))
/// ```
///
/// A reader can also be made from a key — `@SharedReader(.appStorage("theme")) var theme = "light"`
/// — and then refers to the same value as every `Shared` with that key.
///
/// > Important: A reader still changes under your feet: it is the same value the writers change,
/// > not a copy. Copy it into plain state when you need it to stay put.
@dynamicMemberLookup
@propertyWrapper
public struct SharedReader<Value> {
  let box: any SharedBoxProtocol
  let keyPath: AnyKeyPath

  init(box: any SharedBoxProtocol, keyPath: AnyKeyPath) {
    self.box = box
    self.keyPath = keyPath
  }

  /// A read-only view of `shared`.
  public init(_ shared: Shared<Value>) {
    self.init(box: shared.box, keyPath: shared.keyPath)
  }

  /// A reader of a value owned by no key: it never changes.
  ///
  /// ```swift
  /// Child.State(count: SharedReader(value: 42))   // in a test or a preview
  /// ```
  public init(value: Value) {
    self.init(Shared(value))
  }

  /// Wraps an existing reader: what `@SharedReader var count: Int` as a function parameter takes.
  public init(projectedValue: SharedReader<Value>) {
    self = projectedValue
  }

  /// Creates, or finds, the shared value persisted by `key`, read-only, with `wrappedValue` as its
  /// default. See ``Shared/init(wrappedValue:_:)``.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.init(Shared(wrappedValue: wrappedValue(), key))
  }

  /// Unwraps a reader of an optional, or returns `nil` if it is `nil` now.
  public init?(_ optional: SharedReader<Value?>) {
    guard let shared = Shared(Shared<Value?>(box: optional.box, keyPath: optional.keyPath)) else { return nil }
    self.init(shared)
  }

  /// The current value.
  public var wrappedValue: Value { box.read(keyPath, as: Value.self) }

  /// The reader itself: `$count` for `@SharedReader var count`.
  public var projectedValue: SharedReader<Value> {
    get { self }
    set { self = newValue }
  }

  /// Why the stored value could not be loaded, or `nil`.
  public var loadError: (any Error)? { box.loadError }

  /// A reader of a member of the value.
  ///
  /// ```swift
  /// let theme: SharedReader<Theme> = $settings.theme
  /// ```
  public subscript<Member>(dynamicMember member: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader<Member>(box: box, keyPath: keyPath.appending(path: member)!)
  }
}

extension Shared {
  /// A read-only view of this value, to hand to a feature that must not change it.
  public var reader: SharedReader<Value> { SharedReader(self) }
}

extension SharedReader: @unchecked Sendable where Value: Sendable {}

extension SharedReader: Equatable where Value: Equatable {
  /// Equal when the values are equal, with the rules of ``Shared``'s `==` under a test store.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    Shared<Value>(box: lhs.box, keyPath: lhs.keyPath) == Shared<Value>(box: rhs.box, keyPath: rhs.keyPath)
  }
}

extension SharedReader: Identifiable where Value: Identifiable {
  /// The value's id.
  public var id: Value.ID { wrappedValue.id }
}

extension SharedReader: CustomDumpRepresentable {
  public var customDumpValue: Any { wrappedValue }
}

extension SharedReader: CustomStringConvertible {
  public var description: String { "SharedReader(\(String(describing: wrappedValue)))" }
}

extension SharedReader where Value: Sendable {
  /// The value's changes, as an async sequence; see ``Shared/values``.
  public var values: AsyncStream<Value> {
    Shared<Value>(box: box, keyPath: keyPath).values
  }
}
