import ConcurrencyExtras
import Dependencies
import Foundation
import IssueReporting
import Composable

/// Collects reported issues, to check that a persistence problem is reported and how.
final class IssueLog: IssueReporter {
  let entries = LockIsolated<[(message: String, severity: IssueSeverity)]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let message = message() ?? ""
    entries.withValue { $0.append((message, severity)) }
  }
}

/// Runs `operation` against the real file system in a fresh temporary folder, with a fresh registry
/// for each call of `load` (as a new process would have).
struct Disk {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("lunar-shared-\(UUID().uuidString)")

  func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

  func names() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  func freshProcess<R>(_ operation: () -> R) -> R {
    withDependencies {
      $0.defaultFileStorage = .fileSystem
      $0.sharedRegistry = SharedRegistry()
    } operation: {
      operation()
    }
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

