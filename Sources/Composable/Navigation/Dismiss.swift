import Dependencies
import IssueReporting

/// Lets a presented child (or a stack element) close itself from an effect.
///
/// ```swift
/// struct Detail: Reducer {
///   @Dependency(\.dismiss) var dismiss
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       switch action {
///       case .closeTapped:
///         return .run { _ in await dismiss() }
///       }
///     }
///   }
/// }
/// ```
///
/// Calling it sends the parent's `.dismiss` (for `ifLet` over ``PresentationState``) or
/// `.popFrom(id:)` (for `forEach` over ``StackState``), which removes the child and cancels its effects.
///
/// > Important: Call it from an effect of the child. Called anywhere else — outside an effect, or in a
/// > feature that is not presented — it reports an issue and does nothing.
public struct DismissEffect: Sendable {
  /// The dismissal of the child whose effect is running, if any.
  @TaskLocal static var current: Dismissal?

  /// What dismisses the child whose effect is running.
  ///
  /// NB: A task-local value of function type is pushed wrongly by the optimizer (Swift 6.3:
  /// `swift_task_localValuePush` crashes in release builds), so the closure travels in a struct.
  struct Dismissal: Sendable {
    let dismiss: @MainActor @Sendable () -> Void
  }

  /// Creates a dismiss effect; the default one dismisses the child whose effect calls it.
  public init() {}

  /// Dismisses the child whose effect is running.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let dismiss = Self.current else {
      reportIssue(
        """
        "dismiss" was called from a feature that is not presented, or outside of an effect.

        Call it from an effect ("return .run { _ in await dismiss() }") of a child composed with \
        "ifLet" over "PresentationState", or "forEach" over "StackState".
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return
    }
    await dismiss.dismiss()
  }
}

extension DismissEffect: DependencyKey {
  /// Dismisses the child whose effect calls it.
  public static let liveValue = DismissEffect()
  /// Dismisses the child whose effect calls it, as in the app.
  public static let testValue = DismissEffect()
}

extension DependencyValues {
  /// Closes the presented child or stack element whose effect calls it. See ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissEffect.self] }
    set { self[DismissEffect.self] = newValue }
  }
}

extension Effect {
  /// Makes `dismiss()` inside this effect's work send `dismissAction`.
  func dismissing(with dismissAction: Action) -> Self {
    transformRuns { operation in
      { send in
        await DismissEffect.$current.withValue(DismissEffect.Dismissal { send(dismissAction) }) {
          await operation(send)
        }
      }
    }
  }

  /// Makes `dismiss()` inside this effect's work call `dismiss`: how a test store lets its root
  /// feature dismiss itself.
  package func dismissing(perform dismiss: @escaping @MainActor @Sendable () -> Void) -> Self {
    transformRuns { operation in
      { send in
        await DismissEffect.$current.withValue(DismissEffect.Dismissal(dismiss: dismiss)) {
          await operation(send)
        }
      }
    }
  }
}
