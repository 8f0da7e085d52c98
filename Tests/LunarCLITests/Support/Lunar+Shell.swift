import Foundation

extension Lunar {
  /// Runs `script` with `/bin/sh` in `folder`, standard error merged into standard output; returns
  /// that output. The commands in it reach `lunar` through `scripts/lunar` in the folder.
  static func shell(
    _ script: String, in folder: URL, environment: [String: String] = [:], timeout: Double = 120
  ) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result {
          try runBlocking(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "exec 2>&1\n" + script], input: Data(), in: folder,
            environment: environment, timeout: timeout
          ).stdout
        })
      }
    }
  }
}
