import CasePathsCore

/// The actions of a presented child, as the parent sees them.
///
/// ```swift
/// enum Action {
///   case detail(PresentationAction<Detail.Action>)
/// }
/// store.send(.detail(.presented(.saveTapped)))
/// store.send(.detail(.dismiss))
/// ```
///
/// `.presented` runs the child first, then the parent. `.dismiss` runs the parent first (it can still
/// read the child's state), then removes the child and cancels its effects.
public enum PresentationAction<Action: Sendable>: Sendable, CasePathable {
  /// An action of the presented child.
  case presented(Action)
  /// Dismiss the child.
  case dismiss

  /// The case paths of ``PresentationAction``: `presented`, `dismiss`, and the child's own cases
  /// through `presented`, so that `\.detail.saveTapped` reads as `\.detail.presented.saveTapped`.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// The `presented` case.
    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(embed: PresentationAction.presented) {
        guard case let .presented(action) = $0 else { return nil }
        return action
      }
    }

    /// The `dismiss` case.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(embed: { .dismiss }) {
        guard case .dismiss = $0 else { return nil }
        return ()
      }
    }

    /// A case of the presented child's actions: `\.detail.saveTapped` for
    /// `\.detail.presented.saveTapped`.
    public subscript<ChildValue>(
      dynamicMember keyPath: CaseKeyPath<Action, ChildValue>
    ) -> AnyCasePath<PresentationAction, ChildValue> where Action: CasePathable {
      let child = AnyCasePath(keyPath)
      return AnyCasePath(embed: { .presented(child.embed($0)) }) {
        guard case let .presented(action) = $0 else { return nil }
        return child.extract(from: action)
      }
    }
  }

  /// The case paths of this enum.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
