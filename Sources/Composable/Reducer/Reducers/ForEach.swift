import CasePathsCore
import IdentifiedCollections
import IssueReporting

extension Reducer {
  /// Runs an element reducer on the element of an identified array that an action addresses.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.todos, action: \.todos) { Todo() }
  /// ```
  ///
  /// The element runs first, then this reducer. Removing an element cancels every effect it started;
  /// elements never cancel each other's effects, even with the same cancellation id.
  ///
  /// > Important: An action for an id that is not in the array is reported as an issue, typically an
  /// > effect that outlived its row.
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    _ForEachReducer(
      parent: self,
      element: element(),
      toElements: toElements,
      toElementAction: AnyCasePath(toElementAction),
      origin: EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  let toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  let origin: EffectOrigin

  /// Runs the composed reducers on `action`, as the operator that built this reducer describes.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let elementEffect = reduceElement(into: &state, action: action)
    let idsBefore = state[keyPath: toElements].ids
    let parentEffect = parent.reduce(into: &state, action: action)
    let idsAfter = state[keyPath: toElements].ids
    var effect = elementEffect.merge(with: parentEffect)
    // NB: Comparing ordered sets that share storage is cheap, so the common case costs no scan.
    if idsBefore != idsAfter {
      let removed = idsBefore.subtracting(idsAfter)
      for id in removed {
        effect = effect.merge(with: .cancel(scope: scope(id)))
      }
    }
    return effect
  }

  private func scope(_ id: ID) -> ChildScopeID {
    ChildScopeID(path: toElements, identity: AnyHashable(id))
  }

  private func reduceElement(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard case let .element(id, elementAction) = toElementAction.extract(from: action) else { return .none }
    guard state[keyPath: toElements][id: id] != nil else {
      reportIssue(
        """
        A "forEach" at \(origin) received an action for a missing element:

          Action:
            \(issueDescription(action))

          Missing id:
            \(issueDescription(id))

        The element's effects kept running after it was removed, or an action was sent to an id \
        that does not exist.
        """,
        fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
      )
      return .none
    }
    let effect = element.reduce(into: &state[keyPath: toElements][id: id]!, action: elementAction)
    let toElementAction = self.toElementAction
    return effect
      .map { toElementAction.embed(.element(id: id, action: $0)) }
      .scoped(to: scope(id))
  }
}

