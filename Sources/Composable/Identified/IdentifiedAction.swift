import CasePathsCore

/// An action addressed to one element of a collection of child features.
///
/// ```swift
/// enum Action: CasePathable {
///   case todos(IdentifiedActionOf<Todo>)
/// }
/// store.send(.todos(.element(id: todo.id, action: .toggle)))
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: CasePathable, Sendable {
  /// `action`, for the element with `id`.
  case element(id: ID, action: Action)

  /// The case paths of ``IdentifiedAction``: `element` and `[id:]`.
  public struct AllCasePaths: Sendable {
    /// The `element` case as a pair.
    public var element: AnyCasePath<IdentifiedAction, (id: ID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: {
          guard case let .element(id, action) = $0 else { return nil }
          return (id, action)
        }
      )
    }

    /// The action for the element with `id`: `\.todos[id: 3].toggle`.
    public subscript(id id: ID) -> AnyCasePath<IdentifiedAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case let .element(elementID, action) = $0, elementID == id else { return nil }
          return action
        }
      )
    }
  }

  /// The case paths of this enum.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}

/// The ``IdentifiedAction`` of elements of feature `R` identified by `ID`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable
