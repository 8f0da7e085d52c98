import ConcurrencyExtras
import IssueReporting

/// Collects the issues reported while a Lua test runs (by its test stores, or by a feature's
/// errors), attaching the Lua location of the operation in progress.
final class IssueCollector: IssueReporter, Sendable {
  private let state = LockIsolated<(location: String?, failures: [LuaTestFailure])>((nil, []))

  /// The `file:line` that issues reported from now on belong to.
  func at(_ location: String?) {
    state.withValue { $0.location = location }
  }

  func record(_ message: String, location: String? = nil) {
    let text = Self.inLuaTerms(message)
    state.withValue { $0.failures.append(LuaTestFailure(message: text, location: location ?? $0.location)) }
  }

  /// TestStore's messages name its Swift API; a Lua test author knows the `store:` methods.
  static func inLuaTerms(_ message: String) -> String {
    message
      .replacingOccurrences(of: "\"skipReceivedActions\"", with: "store:skipReceived()")
      .replacingOccurrences(of: "\"skipInFlightEffects\"", with: "store:skipInFlight()")
      .replacingOccurrences(of: "with \"receive\"", with: "with store:receive(…)")
      .replacingOccurrences(of: "with \"finish\"", with: "with store:finish()")
      .replacingOccurrences(of: "Await it with \"finish\"", with: "Await it with store:finish()")
  }

  func take() -> [LuaTestFailure] {
    state.withValue { state in
      defer { state.failures = [] }
      return state.failures
    }
  }

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    guard severity == .error else { return }
    record(message() ?? "Issue recorded")
  }

  func expectIssue(
    _ message: @autoclosure () -> String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {}
}
