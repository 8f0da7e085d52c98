import Foundation
import IssueReporting

/// The check that a test process records reported issues as failures.
///
/// On Linux, IssueReporting turns a reported issue into a test failure only when
/// IssueReportingTestSupport is linked into the test process (the ComposableTesting product brings
/// it in); without it, a failed assertion is printed and the test passes. A test store made in such
/// a process stops it at once, with the fix, rather than let failing tests pass.
enum TestSupportCheck {
  /// Whether the function IssueReporting calls to record an issue in Swift Testing is in the
  /// process, looked up as IssueReporting looks it up.
  static let isLinked: Bool = {
    #if canImport(Darwin)
      // NB: on Apple platforms, IssueReporting reaches the testing frameworks without it.
      return true
    #else
      let symbol = "$s25IssueReportingTestSupport07_recordA0ypyF"
      let handle = dlopen("libIssueReportingTestSupport.so", RTLD_LAZY) ?? dlopen(nil, RTLD_LAZY)
      return handle.flatMap { dlsym($0, symbol) } != nil
    #endif
  }()

  /// Stops the process when it runs tests whose issues would be lost: issues go to the default
  /// reporter (not to a host's own, as `lunar test`'s), and nothing records them.
  static func requireLinked() {
    guard isTesting, !isLinked, IssueReporters.current.contains(where: { $0 is _DefaultReporter }) else { return }
    fatalError(
      """
      TestStore: this test process cannot record failures, so failing tests would pass. \
      Add the "ComposableTesting" product of Lunar to the test target's dependencies (it brings \
      IssueReportingTestSupport), or add "IssueReportingTestSupport" of xctest-dynamic-overlay.
      """
    )
  }
}
