import CasePathsCore

/// The actions of a navigation stack, as the parent sees them.
///
/// ```swift
/// enum Action {
///   case path(StackAction<Path.State, Path.Action>)
/// }
/// store.send(.path(.element(id: 0, action: .detail(.saveTapped))))
/// store.send(.path(.popFrom(id: 0)))
/// ```
public enum StackAction<State, Action: Sendable>: CasePathable {
  /// An action of the element with `id`: runs the element, then the parent.
  case element(id: StackElementID, action: Action)
  /// Pops the element with `id` and every element above it: runs the parent, then pops.
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`, then runs the parent.
  case push(id: StackElementID, state: State)

  /// The case paths of ``StackAction``: `element`, `[id:]`, `popFrom` and `push`.
  public struct AllCasePaths {
    /// The `element` case as a pair.
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(embed: { .element(id: $0.id, action: $0.action) }) {
        guard case let .element(id, action) = $0 else { return nil }
        return (id, action)
      }
    }

    /// The action of the element with `id`: `\.path[id: 0].detail`.
    public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
      AnyCasePath(embed: { .element(id: id, action: $0) }) {
        guard case let .element(elementID, action) = $0, elementID == id else { return nil }
        return action
      }
    }

    /// The `popFrom` case.
    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(embed: { .popFrom(id: $0) }) {
        guard case let .popFrom(id) = $0 else { return nil }
        return id
      }
    }

    /// The `push` case.
    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(embed: { .push(id: $0.id, state: $0.state) }) {
        guard case let .push(id, state) = $0 else { return nil }
        return (id, state)
      }
    }
  }

  /// The case paths of this enum.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension StackAction: Sendable where State: Sendable {}
extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}

/// The ``StackAction`` of a stack of feature `R`: `StackActionOf<Path>` for
/// `StackAction<Path.State, Path.Action>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>
