import Foundation
import Testing
import TestSupport

/// A `lunar run` that keeps running while a test does other things: its input stays open until
/// ``finish(timeout:)``, and its output lines can be awaited as they come.
final class RunningHost: @unchecked Sendable {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let lock = NSLock()
  private var received = Data()

  /// Starts `lunar` with `arguments` in the package root, with `environment` added.
  init(_ arguments: [String], environment: [String: String]) async throws {
    process.executableURL = try await Lunar.binary()
    process.arguments = arguments
    process.currentDirectoryURL = Lunar.packageRoot
    process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["NO_COLOR": "1"]) { $1 }) { $1 }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.nextChunk()
      guard let self, !data.isEmpty else { return }
      self.lock.withLock { self.received.append(data) }
    }
    try process.run()
  }

  /// The lines printed so far.
  var lines: [String] {
    lock.withLock { String(decoding: received, as: UTF8.self) }.split(separator: "\n").map(String.init)
  }

  /// Sends one line of input.
  func send(_ line: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  /// Waits until `count` lines satisfy `predicate` (at most `timeout` seconds).
  func waitFor(_ count: Int = 1, timeout: Double = 30, _ predicate: (String) -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while lines.filter(predicate).count < count {
      guard ContinuousClock.now < deadline else {
        Issue.record("timed out waiting for output; got:\n\(lines.joined(separator: "\n"))")
        return
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Closes the input and waits for the process to end; returns its exit status.
  func finish(timeout: Double = 30) async throws -> Int32 {
    try input.fileHandleForWriting.close()
    let deadline = ContinuousClock.now + .seconds(timeout)
    while process.isRunning, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    output.fileHandleForReading.readabilityHandler = nil
    return process.terminationStatus
  }
}
