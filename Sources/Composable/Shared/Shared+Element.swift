import IdentifiedCollections

extension Shared {
  /// The element with `id` of a shared identified array, as a shared optional.
  ///
  /// ```swift
  /// guard let todo = Shared(state.todos[id: id]) else { return .none }
  /// todo.withLock { $0.isComplete.toggle() }   // changes state.todos too
  /// ```
  ///
  /// Writing `nil` removes the element; writing a value replaces or appends it.
  public subscript<ID: Hashable & Sendable, Element>(id id: ID) -> Shared<Element?>
  where Value == IdentifiedArray<ID, Element> {
    field(\IdentifiedArray<ID, Element>.[id: id])
  }

  /// Unwraps a shared optional, or returns `nil` if it is `nil` now.
  ///
  /// ```swift
  /// guard let todo = Shared(state.todos[id: id]) else { return .none }
  /// ```
  ///
  /// > Important: If the value later becomes `nil` (the element is removed), reading the unwrapped
  /// > value gives the last value it had when unwrapped, and writes to it are ignored.
  public init?(_ optional: Shared<Value?>) {
    guard let current = optional.wrappedValue else { return nil }
    let unwrap = \Value?.[sharedUnwrapping: SharedFallback(current)]
    self.init(box: optional.box, keyPath: optional.keyPath.appending(path: unwrap)!)
  }
}

extension Shared where Value: _MutableIdentifiedCollection {
  /// The elements of a shared identified array, each a shared value that follows its element by
  /// id: reordering the array does not mix them up.
  ///
  /// ```swift
  /// for todo in state.$todos.elements {
  ///   todo.withLock { $0.isComplete = false }   // changes state.todos
  /// }
  /// // A row feature per todo, each holding its own shared element:
  /// state.rows = IdentifiedArray(uniqueElements: state.$todos.elements.map { Row.State(todo: $0) })
  /// ```
  ///
  /// > Important: The collection is the elements as they are now: an element added later is not
  /// > in it, and a removed element's `Shared` keeps its last value (writes to it are ignored).
  public var elements: [Shared<Value.Element>] {
    wrappedValue.ids.compactMap { id in Shared<Value.Element>(field(\Value.[id: id])) }
  }
}

extension SharedReader where Value: _IdentifiedCollection {
  /// The element with `id` of a shared identified collection, as a read-only optional.
  public subscript(id id: Value.ID) -> SharedReader<Value.Element?> {
    SharedReader<Value.Element?>(box: box, keyPath: keyPath.appending(path: \Value.[id: id])!)
  }

  /// The elements of a shared identified collection, each a reader that follows its element by
  /// id. See ``Shared/elements``.
  public var elements: [SharedReader<Value.Element>] {
    wrappedValue.ids.compactMap { id in SharedReader<Value.Element>(self[id: id]) }
  }
}

/// The value an unwrapped `Shared` reads once its optional is `nil`. Hashed by identity, as key path
/// subscript arguments must be hashable.
final class SharedFallback<Wrapped>: Hashable, @unchecked Sendable {
  let value: Wrapped
  init(_ value: Wrapped) { self.value = value }
  static func == (lhs: SharedFallback, rhs: SharedFallback) -> Bool { lhs === rhs }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Optional {
  subscript(sharedUnwrapping fallback: SharedFallback<Wrapped>) -> Wrapped {
    get { self ?? fallback.value }
    set { if self != nil { self = newValue } }
  }
}
