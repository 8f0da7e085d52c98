import CasePathsCore
import Dependencies
import OrderedCollections

/// The screens of a navigation stack: an ordered collection of child states, each with a stable
/// ``StackElementID``.
///
/// ```swift
/// struct State: Equatable {
///   var path = StackState<Path.State>()
/// }
///
/// case .showDetail:
///   state.path.append(.detail(Detail.State()))
/// case .backToRoot:
///   state.path.removeAll()
/// ```
///
/// Compose it with ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)``. Removing an
/// element cancels its effects.
///
/// > Important: Ids are given when an element is appended (from the `stackElementID` dependency), not
/// > derived from the element: two equal states pushed twice are two different screens.
///
/// Elements removed by any reducer have their effects cancelled: by the `forEach` when it removes
/// them, or by the next action reaching the `forEach` when another reducer of the body did.
public struct StackState<Element> {
  var storage: OrderedDictionary<StackElementID, Element> = [:]
  /// The ids the `forEach` saw after it last ran: the elements whose effects it may have to cancel.
  var mounted: OrderedSet<StackElementID> = []

  /// An empty stack.
  public init() {}

  /// A stack holding `elements`, with fresh ids.
  public init(_ elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// The ids of the elements, bottom to top.
  public var ids: OrderedSet<StackElementID> { storage.keys }

  /// The element with `id`, if it is on the stack. Setting `nil` removes it; setting a missing id
  /// pushes the element with that id (as tests do to describe a push).
  public subscript(id id: StackElementID) -> Element? {
    get { storage[id] }
    _modify { yield &storage[id] }
  }

  /// The element with `id` in one case of a path enum, or `nil` when it is in another case (or is
  /// not on the stack).
  ///
  /// ```swift
  /// state.path[id: id, case: \.detail]?.title = "Edited"
  /// ```
  ///
  /// > Important: Writing through a case that is not the element's changes nothing and reports an
  /// > issue ("Can't modify unrelated case").
  public subscript<Case>(id id: StackElementID, case path: CaseKeyPath<Element, Case>) -> Case?
  where Element: CasePathable {
    get { storage[id].flatMap { $0[case: path] } }
    _modify {
      let casePath = AnyCasePath(path)
      let root = storage[id]
      var value = root.flatMap(casePath.extract)
      let matched = value != nil
      yield &value
      guard matched else { return reportUnrelatedCase(root) }
      storage[id] = value.map(casePath.embed)
    }
  }

  /// Pushes `element` with a new id.
  public mutating func append(_ element: Element) {
    @Dependency(\.stackElementID) var stackElementID
    var id = stackElementID.next()
    // NB: Never replace an element: an id pushed from elsewhere may already be on the stack.
    while storage[id] != nil { id = stackElementID.next() }
    storage[id] = element
  }

  /// Pushes `element` with a given id. Used by `StackAction.push` and by tests; prefer
  /// ``append(_:)``, which draws the next id.
  public mutating func append(_ element: Element, id: StackElementID) {
    storage[id] = element
  }

  /// Removes the element with `id` and every element above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = storage.index(forKey: id) else { return }
    storage.removeSubrange(index...)
  }

  /// Removes every element above the one with `id`.
  public mutating func pop(to id: StackElementID) {
    guard let index = storage.index(forKey: id) else { return }
    storage.removeSubrange((index + 1)...)
  }

  /// Removes and returns the bottom element; the others keep their ids.
  @discardableResult
  public mutating func removeFirst() -> Element {
    storage.removeFirst().value
  }

  /// Removes and returns the top element.
  @discardableResult
  public mutating func removeLast() -> Element {
    storage.removeLast().value
  }

  /// Removes the top `count` elements.
  public mutating func removeLast(_ count: Int) {
    storage.removeLast(count)
  }

  /// Removes every element.
  public mutating func removeAll() {
    storage.removeAll()
  }

  /// Removes and returns the top element, if any.
  @discardableResult
  public mutating func popLast() -> Element? {
    storage.isEmpty ? nil : storage.removeLast().value
  }
}

extension StackState: RandomAccessCollection {
  /// The bottom of the stack.
  public var startIndex: Int { 0 }
  /// One past the top of the stack.
  public var endIndex: Int { storage.count }
  /// The element at a position, counted from the bottom.
  public subscript(position: Int) -> Element { storage.values[position] }
}

extension StackState: ExpressibleByArrayLiteral {
  /// A stack of the listed elements, bottom first, with fresh ids.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when the elements and their ids are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage == rhs.storage
  }
}

extension StackState: Hashable where Element: Hashable {
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomReflectable {
  /// The elements by id, bottom to top: dumped and diffed as `[#0: …, #1: …]`.
  public var customMirror: Mirror {
    Mirror(
      self,
      unlabeledChildren: storage.map { (key: AnyHashable($0.key), value: $0.value as Any) },
      displayStyle: .dictionary
    )
  }
}
