import CustomDump
import Dependencies
import IssueReporting

/// A value owned in one place and seen by many features: a reference inside value state.
///
/// Copies of a `Shared` refer to the same value, so a change made through one copy — by a child
/// feature, another feature holding the same persisted key, or an effect — is seen through every
/// copy. It is a property wrapper: read the value through the property, and change it with
/// ``withLock(_:)`` on its projection (`$`):
///
/// ```swift
/// struct State: Equatable {
///   @Shared(.appStorage("count")) var count = 0
///   @Shared var total: Int                 // handed in: State(total: Shared(value: 0))
/// }
/// // In the reducer:
/// state.$count.withLock { $0 += 1 }
/// // Hand a child the same reference:
/// state.child = Child.State(count: state.$count)
/// ```
///
/// A plain stored `Shared<Int>` property works the same way (`state.count.withLock { … }`,
/// `state.count.value`).
///
/// A shared value may be persisted by a ``SharedKey``: ``SharedKey/inMemory(_:)``,
/// ``SharedKey/fileStorage(_:)`` or ``SharedKey/appStorage(_:url:)``; every `Shared` created with the same key
/// (in the same ``SharedRegistry`` and file storage) refers to the same value. A key may carry its
/// default (``SharedKeyDefault``): `@Shared(.count) var count`.
///
/// Derive shared pieces with dynamic member lookup (`$settings.theme` is a `Shared<Theme>`),
/// `$todos[id: id]` or ``elements``; a read-only view is a ``SharedReader``. Observe changes from an
/// effect with ``values``.
///
/// Two `Shared` values are equal when their values are equal. A ``TestStore`` snapshots shared values,
/// so tests assert on them like any state: `$0.$count.withLock { $0 = 1 }` in an assertion closure.
///
/// > Important: `Shared` is a reference: `let n = count` then `$count.withLock { $0 = n + 1 }`
/// > races with other writers. Do the whole read-modify-write inside one ``withLock(_:)``. The
/// > property cannot be assigned (`count = 1`) for the same reason.
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value> {
  let box: any SharedBoxProtocol
  /// The path from the box's root to this value (`\Root.self` for a root).
  let keyPath: AnyKeyPath

  init(box: any SharedBoxProtocol, keyPath: AnyKeyPath) {
    self.box = box
    self.keyPath = keyPath
  }

  /// Creates a shared value owned by no key: it is shared by handing copies of it around.
  ///
  /// ```swift
  /// let count = Shared(0)
  /// let parent = Parent.State(count: count)
  /// let child = Child.State(count: count)   // same value
  /// ```
  public init(_ value: Value) {
    self.init(
      box: SharedBox(
        value, tracker: SharedChangeTracker.current, describe: { diff($0, $1, format: .proportional) }
      ),
      keyPath: \Value.self
    )
  }

  /// Creates a shared value owned by no key (the same as ``init(_:)``, in swift-sharing's spelling).
  ///
  /// ```swift
  /// @Shared(value: 0) var count
  /// ```
  public init(value: Value) {
    self.init(value)
  }

  /// Wraps an existing shared value: what `@Shared var count: Int` as a function parameter takes.
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// Creates, or finds, the shared value persisted by `key`, with `wrappedValue` as its default.
  ///
  /// ```swift
  /// @Shared(.fileStorage(settingsURL)) var settings = Settings()
  /// let count = Shared(wrappedValue: 0, .inMemory("count"))
  /// ```
  ///
  /// The first `Shared` created for a key in the current ``SharedRegistry`` (and, for a persisted
  /// key, the current `defaultFileStorage`) loads the value (`wrappedValue` when nothing was
  /// stored); later ones refer to the same value and ignore their `wrappedValue`. When what was stored cannot be read, the value is `wrappedValue`, the error is
  /// reported and kept as ``loadError``, and changes are not saved (which would overwrite it).
  ///
  /// > Important: A key must always be used with the same `Value` type. Using it with another type
  /// > is reported as an issue and gives an unshared value.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    @Dependency(\.sharedRegistry) var registry
    @Dependency(\.defaultFileStorage) var storage
    let tracker = SharedChangeTracker.current
    let box = registry.box(for: SharedRegistry.ID(key, in: storage), as: Value.self) {
      let initial: Value
      var loadError: (any Error)?
      do {
        initial = try key.load(default: wrappedValue(), from: storage)
      } catch {
        initial = wrappedValue()
        loadError = error
        reportIssue("\(error)")
      }
      return SharedBox(
        initial,
        tracker: tracker,
        persist: { try key.save($0, to: storage) },
        loadError: loadError,
        describe: { diff($0, $1, format: .proportional) }
      )
    }
    self.init(box: box, keyPath: \Value.self)
  }

  /// The current value.
  ///
  /// > Important: It cannot be assigned: change it with ``withLock(_:)`` (`$count.withLock { $0 = 1 }`),
  /// > so a read-modify-write is one step under the value's lock.
  public var wrappedValue: Value {
    get { box.read(keyPath, as: Value.self) }
    @available(*, unavailable, message: "Use '$shared.withLock { $0 = newValue }' to change a shared value")
    nonmutating set { withLock { $0 = newValue } }
  }

  /// The current value (the same as ``wrappedValue``).
  public var value: Value { wrappedValue }

  /// The shared reference itself: `$count` for `@Shared var count`, to change it with
  /// ``withLock(_:)``, hand it to a child, or derive a field (`$settings.theme`). Assigning it
  /// points the property at another shared value.
  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Reads and changes the value as one step, under the value's lock.
  ///
  /// ```swift
  /// state.count.withLock { $0 += 1 }
  /// ```
  ///
  /// Safe to call from an effect on any thread. The change is persisted (if the value has a key) and
  /// observers are told before this returns. A change that cannot be saved stays in memory: the
  /// failure is reported as an issue and kept in ``saveError`` (``withLockIfSaved(_:)`` refuses
  /// such a change instead).
  ///
  /// > Important: Do not `await` or call into another store inside `body`: the lock is held.
  @discardableResult
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try box.withLock(keyPath, body)
  }

  /// Reads and changes the value as one step, like ``withLock(_:)``, but keeps the change only if
  /// it is saved.
  ///
  /// ```swift
  /// do {
  ///   try settings.withLockIfSaved { $0.ratio = ratio }
  /// } catch {
  ///   // not saved (the file could not be read at load, the value cannot be encoded, the disk is
  ///   // full): the value, the file and observers are as they were
  /// }
  /// ```
  ///
  /// For a value without persistence it is `withLock`. Under a ``TestStore`` assertion it edits
  /// the expected value, as `withLock` does.
  ///
  /// - Throws: What `body` throws, or a ``SharedPersistenceError`` when saving failed.
  @discardableResult
  public func withLockIfSaved<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
    try box.withLockIfSaved(keyPath, body)
  }

  /// Why the stored value could not be loaded, or `nil`. While it is set the value is not saved:
  /// saving would overwrite what could not be read.
  public var loadError: (any Error)? { box.loadError }

  /// Why the last save failed, or `nil` when it succeeded (or nothing was saved yet).
  public var saveError: (any Error)? { box.saveError }

  /// A shared value derived from a field: reads and writes go through this value.
  ///
  /// ```swift
  /// let theme: Shared<Theme> = settings.theme
  /// theme.withLock { $0 = .dark }   // settings.value.theme is now .dark, and persisted
  /// ```
  public subscript<Field>(dynamicMember field: WritableKeyPath<Value, Field>) -> Shared<Field> {
    self.field(field)
  }

  /// A read-only view of a property that cannot be written (a `let`, a computed property).
  ///
  /// ```swift
  /// let count: SharedReader<Int> = $todos.count
  /// ```
  public subscript<Member>(dynamicMember member: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader(box: box, keyPath: keyPath.appending(path: member)!)
  }

  /// A shared value derived from a field (the spelled-out form of `shared.name`).
  public func field<Field>(_ field: WritableKeyPath<Value, Field>) -> Shared<Field> {
    Shared<Field>(box: box, keyPath: keyPath.appending(path: field)!)
  }
}

extension Shared: @unchecked Sendable where Value: Sendable {}

extension Shared: Equatable where Value: Equatable {
  /// Equal when the values are equal.
  ///
  /// While a ``TestStore`` compares states, or inside ``SharedChangeTracker/assert(_:)``, a `Shared`
  /// compared with itself compares the value the test expects (on the left) with the current one.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch SharedChangeTracker.mode {
    case let .comparing(tracker):
      return lhs.box.readSnapshot(lhs.keyPath, as: Value.self, in: tracker) == rhs.wrappedValue
    case .asserting where lhs.box === rhs.box && lhs.keyPath == rhs.keyPath:
      return lhs.wrappedValue == rhs.box.readSnapshot(rhs.keyPath, as: Value.self, in: nil)
    case .live, .asserting, .dumpingExpected:
      return lhs.wrappedValue == rhs.wrappedValue
    }
  }
}

extension Shared: Identifiable where Value: Identifiable {
  /// The value's id: a shared element is identified as its element is.
  public var id: Value.ID { wrappedValue.id }
}

extension Shared: CustomDumpRepresentable {
  public var customDumpValue: Any { wrappedValue }
}

extension Shared: CustomStringConvertible {
  public var description: String { "Shared(\(String(describing: wrappedValue)))" }
}
