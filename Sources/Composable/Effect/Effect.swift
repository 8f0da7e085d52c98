import Dependencies
import IssueReporting

/// Work a reducer asks the store to do after it has changed state: usually asynchronous, usually
/// feeding actions back into the store.
///
/// A reducer returns an effect from every action. Most return ``none``; others start work with
/// ``run(priority:operation:catch:fileID:filePath:line:column:)``, or combine effects with
/// ``merge(_:)-swift.type.method`` and ``concatenate(_:)-swift.type.method``.
///
/// ```swift
/// case .factButtonTapped:
///   state.isLoading = true
///   return .run { [count = state.count] send in
///     await send(.factResponse(try await numberFact.fetch(count)))
///   }
/// ```
///
/// An effect is a description: nothing happens until a ``Store`` (or a `TestStore`) runs it.
///
/// > Important: Capture the values you need from state (`[count = state.count]`), never `state` itself:
/// > the effect runs later, when state has moved on.
public struct Effect<Action: Sendable>: Sendable {
  @usableFromInline
  indirect enum Operation: Sendable {
    case none
    case send(Action)
    case run(Run)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(id: AnyEffectID, cancelInFlight: Bool, Effect)
    case cancel(id: AnyEffectID)
    case throttle(Throttle)
    /// Child effects: ids inside are relative to `component`, and removing the child cancels them all.
    case scoped(component: AnyEffectID, Effect)
  }

  @usableFromInline
  struct Run: Sendable {
    let priority: TaskPriority?
    let operation: @Sendable (Send<Action>) async -> Void
    let origin: EffectOrigin
  }

  @usableFromInline
  let operation: Operation

  @usableFromInline
  init(_ operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing. The common return value of a reducer.
  public static var none: Self { Self(.none) }

  /// An effect that feeds `action` back into the store immediately, before `send` returns.
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .send(.delegate(.saved(state.item)))
  /// ```
  ///
  /// > Important: Prefer calling shared logic directly over sending an action to yourself: each action
  /// > runs the whole reducer again.
  public static func send(_ action: Action) -> Self {
    Self(.send(action))
  }

  /// An effect that runs an asynchronous operation, which may send any number of actions back.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await event in events() {
  ///     await send(.event(event))
  ///   }
  /// }
  /// ```
  ///
  /// Errors thrown by `operation` go to `handler`. Without a handler, an error other than a
  /// cancellation is reported as an issue (a test failure in tests), naming the line that created
  /// the effect. Dependencies in effect when the reducer ran stay in effect inside `operation`.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The work to do; `send` feeds actions back into the store.
  ///   - handler: Called with the error when `operation` throws; it can send actions too.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let origin = EffectOrigin(fileID: fileID, filePath: filePath, line: line, column: column)
    // NB: Dependencies are task-local; capture them now so overrides made for the reducer also hold
    //     for the work it starts.
    return withEscapedDependencies { dependencies in
      Self(
        .run(
          Run(priority: priority, origin: origin) { send in
            await dependencies.yield {
              do {
                try await operation(send)
              } catch is CancellationError {
                return
              } catch {
                if Task.isCancelled { return }
                guard let handler else {
                  reportIssue(
                    """
                    An 'Effect.run' created at \(origin) threw an unhandled error:

                      \(error)

                    All non-cancellation errors must be handled, by a 'catch' handler on \
                    'Effect.run' or inside the operation itself.
                    """,
                    fileID: origin.fileID,
                    filePath: origin.filePath,
                    line: origin.line,
                    column: origin.column
                  )
                  return
                }
                await handler(error, send)
              }
            }
          }
        )
      )
    }
  }
}

extension Effect.Run {
  init(
    priority: TaskPriority?,
    origin: EffectOrigin,
    operation: @escaping @Sendable (Send<Action>) async -> Void
  ) {
    self.priority = priority
    self.operation = operation
    self.origin = origin
  }
}
