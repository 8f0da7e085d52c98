import ConcurrencyExtras
import Foundation
import IssueReporting

/// Shows issues the core reports while a feature runs — a shared file renamed aside, a file that
/// cannot be read, a change that was not saved — in the run's own output: warning and error
/// events in JSON, coloured lines at a terminal. An error counts towards the exit status.
///
/// ```swift
/// let issues = RunIssueReporter(output: output)
/// IssueReporters.current = [issues]
/// ```
///
/// Issues may be reported on any thread; they are shown on the main actor, at the next
/// ``deliverPending()`` (the session calls it before each event it shows, so that an issue comes
/// before the state it concerns) or soon after.
final class RunIssueReporter: IssueReporter, Sendable {
  private let pending = LockIsolated<[(message: String, isWarning: Bool)]>([])
  // NB: touched only on the main actor.
  nonisolated(unsafe) private weak var output: (any SessionOutput)?

  @MainActor
  init(output: any SessionOutput) {
    self.output = output
  }

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let text = message() ?? "an issue was reported"
    pending.withValue { $0.append((text, severity == .warning)) }
    Task { @MainActor in self.deliverPending() }
  }

  /// Shows the issues reported so far.
  @MainActor
  func deliverPending() {
    let issues = pending.withValue { issues in
      defer { issues.removeAll() }
      return issues
    }
    for issue in issues {
      if issue.isWarning { output?.warning(issue.message) } else { output?.hostError(kind: "data", message: issue.message) }
    }
  }
}
