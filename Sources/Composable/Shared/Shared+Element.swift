import Foundation
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
  /// > Important: If the value later becomes `nil` (the element is removed), the unwrapped value
  /// > keeps a value of its own: the last one read or written through it. Writes then change only
  /// > that value; once the optional has a value again, the unwrapped value follows it again.
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
  /// > in it, and a removed element's `Shared` keeps a value of its own (see ``init(_:)``).
  public var elements: [Shared<Value.Element>] {
    wrappedValue.ids.compactMap { id in Shared<Value.Element>(field(\Value.[id: id])) }
  }
}

extension RangeReplaceableCollection {
  /// The elements of a shared identified array as shared values (swift-sharing's spelling of
  /// ``Shared/elements``).
  ///
  /// ```swift
  /// let todos = Array(state.$todos)   // [Shared<Todo>]
  /// ```
  public init<Value: _MutableIdentifiedCollection>(_ shared: Shared<Value>)
  where Element == Shared<Value.Element> {
    self.init(shared.elements)
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

/// The value an unwrapped `Shared` keeps for when its optional is `nil`: the last one read or
/// written through it. Hashed by identity, as key path subscript arguments must be hashable.
final class SharedFallback<Wrapped>: Hashable, @unchecked Sendable {
  // NB: Its own lock: a frozen copy of the shared value reads through the same key path.
  private let lock = NSLock()
  private var last: Wrapped
  init(_ value: Wrapped) { self.last = value }
  var value: Wrapped {
    get { lock.withLock { last } }
    set { lock.withLock { last = newValue } }
  }
  static func == (lhs: SharedFallback, rhs: SharedFallback) -> Bool { lhs === rhs }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Optional {
  subscript(sharedUnwrapping fallback: SharedFallback<Wrapped>) -> Wrapped {
    get {
      guard let self else { return fallback.value }
      fallback.value = self
      return self
    }
    set {
      fallback.value = newValue
      if self != nil { self = newValue }
    }
  }
}
