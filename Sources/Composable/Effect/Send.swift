/// Feeds actions from an effect back into the store that runs it.
///
/// You get a `Send` in ``Effect/run(priority:operation:catch:fileID:filePath:line:column:)`` and call it
/// like a function:
///
/// ```swift
/// return .run { send in
///   await send(.started)
///   await send(.finished(try await work()))
/// }
/// ```
///
/// Once the effect is cancelled, actions sent through it are dropped, so a cancelled request can never
/// overwrite newer state.
@MainActor
public struct Send<Action>: Sendable {
  @usableFromInline
  let send: @MainActor @Sendable (Action) -> Void

  /// Creates a `Send` that hands actions to `send`. Useful to drive an effect by hand in tests.
  public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends `action` to the store, unless the effect has been cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    self.send(action)
  }
}
