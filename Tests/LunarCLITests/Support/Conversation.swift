import Foundation
import TestSupport

/// `lunar run` driven line by line, the way an editor or another program talks to it: standard
/// input stays open, and each line is sent only after the events of the previous one arrived.
final class Conversation: @unchecked Sendable {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let condition = NSCondition()
  private var pending = Data()
  private var lines: [String] = []
  private var read = 0
  private var ended = false
  /// The state so far, from the events read (state events carry what changed).
  private var mirror = StateMirror()

  init(_ arguments: [String]) async throws {
    let binary = try await Lunar.binary()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = Lunar.packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let handle = output.fileHandleForReading
    Thread.detachNewThread { [self] in
      while true {
        let data = handle.nextChunk()
        condition.lock()
        if data.isEmpty {
          ended = true
        } else {
          pending += data
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending = Data(pending[(newline + 1)...])
          }
        }
        condition.broadcast()
        condition.unlock()
        if data.isEmpty { return }
      }
    }
  }

  /// Writes one line to the process's standard input.
  func send(_ line: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  /// The next event named `name` (skipping others), or `nil` if none arrives within `timeout`.
  func next(_ name: String, timeout: Double = 10) async -> Event? {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { [self] in
        continuation.resume(returning: waitForEvent(name, timeout: timeout))
      }
    }
  }

  private func waitForEvent(_ name: String, timeout: Double) -> Event? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      while read < lines.count {
        let line = lines[read]
        read += 1
        if let event = Event(line: line).map({ mirror.follow($0) }), event.name == name { return event }
      }
      if ended || !condition.wait(until: deadline) { return nil }
    }
  }

  /// The next line of output holding `text` (skipping others), or `nil` if none arrives within
  /// `timeout`: for commands writing text rather than events.
  func nextLine(containing text: String, timeout: Double = 10) async -> String? {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { [self] in
        continuation.resume(returning: waitForLine(containing: text, timeout: timeout))
      }
    }
  }

  private func waitForLine(containing text: String, timeout: Double) -> String? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      while read < lines.count {
        let line = lines[read]
        read += 1
        if line.contains(text) { return line }
      }
      if ended || !condition.wait(until: deadline) { return nil }
    }
  }

  /// Every line of output so far.
  var transcript: String {
    condition.lock()
    defer { condition.unlock() }
    return lines.joined(separator: "\n")
  }

  /// Sends SIGINT, as ctrl-C at a terminal does, and waits for the process to end; returns its
  /// exit status, or `nil` if it still runs after `timeout` (it is then killed).
  func interrupt(timeout: Double = 20) -> Int32? {
    process.interrupt()
    let deadline = Date(timeIntervalSinceNow: timeout)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    guard !process.isRunning else {
      process.terminate()
      return nil
    }
    return process.terminationStatus
  }

  /// Closes standard input and waits for the process to end; returns its exit status.
  func finish() -> Int32 {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit {
    if process.isRunning { process.terminate() }
  }
}
