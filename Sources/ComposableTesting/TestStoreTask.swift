import Composable
import ConcurrencyExtras
import IssueReporting

/// The effects started by one ``TestStore/send(_:assert:fileID:filePath:line:column:)``, and those of
/// the actions they sent in turn.
///
/// ```swift
/// let task = await store.send(.startTimer)
/// await clock.advance(by: .seconds(1))
/// await store.receive(\.tick) { $0.seconds = 1 }
/// await task.cancel()
/// ```
@MainActor
public struct TestStoreTask {
  let group: EffectGroup?
  let timeout: Duration

  init(group: EffectGroup?, timeout: Duration) {
    self.group = group
    self.timeout = timeout
  }

  /// Cancels the effects (and those of the actions they sent) and waits until they have stopped.
  ///
  /// Use it to end work a view would end by disappearing:
  ///
  /// ```swift
  /// let onAppear = await store.send(.onAppear)   // starts a long-lived observation
  /// // … assertions …
  /// await onAppear.cancel()
  /// ```
  public func cancel() async {
    guard let group else { return }
    group.cancel()
    await group.finish()
  }

  /// Waits for the effects (and those of the actions they sent) to finish, and fails the test if
  /// they are still running after `timeout` (the store's ``TestStore/timeout`` by default).
  ///
  /// ```swift
  /// await store.send(.stopTimerTapped).finish()
  /// ```
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let group else { return }
    let timeout = timeout ?? self.timeout
    let done = LockIsolated(false)
    // NB: The watcher is never cancelled: cancelling it would cancel the effects it waits for.
    Task {
      await group.finish()
      done.setValue(true)
    }
    let finished = await waitUntil(timeout: timeout) { done.value }
    guard !finished else { return }
    reportIssue(
      """
      Expected the task to finish, but it is still in flight after \(timeout).

      Advance the clock its effects wait on, cancel them in the feature, or give this assertion a \
      longer "timeout".
      """,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Whether the effects have been cancelled (`true` when the action started none).
  public var isCancelled: Bool { group?.isCancelled ?? true }
}
