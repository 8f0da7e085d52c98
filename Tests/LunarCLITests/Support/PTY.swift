import Foundation
import Testing

/// `lunar` on a pseudo-terminal, driven key by key as a person types (by `PTY/drive.py`, in
/// Python's standard `pty` module).
enum PTY {
  /// One thing the person does.
  enum Step: Encodable {
    /// Types `keys` (`"\u{1B}[A"` is the up arrow, `"\u{0C}"` ctrl-L, `"\r"` return).
    case send(String)
    /// Waits until the terminal shows `text`, after what the previous `expect` matched.
    case expect(String, timeout: Double = 20)
    /// Waits a while.
    case sleep(Double)
    /// Notes the time, to measure how long after it `lunar` ended (``Result/exitAfter``).
    case mark(String)
    /// Waits for `lunar` to end, at most this many seconds.
    case exit(Double)

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      switch self {
      case let .send(keys): try container.encode(keys, forKey: .send)
      case let .expect(text, timeout):
        try container.encode(text, forKey: .expect)
        try container.encode(timeout, forKey: .timeout)
      case let .sleep(seconds): try container.encode(seconds, forKey: .sleep)
      case let .mark(name): try container.encode(name, forKey: .mark)
      case let .exit(seconds): try container.encode(seconds, forKey: .exit)
      }
    }

    private enum Key: String, CodingKey { case send, expect, timeout, sleep, mark, exit }
  }

  /// What the terminal showed, and how the run ended.
  struct Result: Decodable, CustomStringConvertible {
    /// Whether every step happened (an `expect` that never showed, or a run that did not end, is not).
    var ok: Bool
    var error: String?
    /// Every byte written to the terminal, escape sequences included.
    var transcript: String
    /// The exit status (`nil` if `lunar` was killed at the end).
    var status: Int?
    /// For each mark, the seconds from it to `lunar`'s end.
    var exitAfter: [String: Double]

    enum CodingKeys: String, CodingKey {
      case ok, error, transcript, status
      case exitAfter = "exit_after"
    }

    var description: String {
      "ok: \(ok) \(error ?? "") status: \(status.map(String.init) ?? "none")\n--- terminal\n\(transcript.suffix(6000))"
    }
  }

  static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") }

  /// Runs `lunar` with `arguments` on a terminal of `columns`×24 (`TERM=xterm`, no colours) and
  /// plays `steps`.
  ///
  /// - Parameters:
  ///   - state: The folder standing for `$XDG_STATE_HOME`, where the prompt keeps history.
  ///   - errors: A file for `lunar`'s standard error (the terminal's, without it), for a test that
  ///     reads what `lunar` reports there (the devtools' address) while it runs.
  static func run(_ arguments: [String], state: URL, columns: Int = 80, errors: URL? = nil, steps: [Step]) async throws -> Result {
    let binary = try await Lunar.binary()
    let driver = Lunar.testsFolder.appendingPathComponent("PTY").appendingPathComponent("drive.py")
    let script = try JSONEncoder().encode(steps)
    return try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Swift.Result {
          let process = Process()
          process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
          let command = errors == nil ? [binary.path] : ["/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"$ERRORS\"", binary.path]
          process.arguments = [driver.path, "--cols", String(columns), "--"] + command + arguments
          process.currentDirectoryURL = Lunar.packageRoot
          var environment = ProcessInfo.processInfo.environment
          environment["TERM"] = "xterm"
          environment["NO_COLOR"] = "1"
          environment["XDG_STATE_HOME"] = state.path
          environment["ERRORS"] = errors?.path
          // NB: the terminal's size is the one set here, not one inherited.
          environment["COLUMNS"] = nil
          environment["LINES"] = nil
          process.environment = environment
          let input = Pipe()
          let output = Pipe()
          process.standardInput = input
          process.standardOutput = output
          try process.run()
          try input.fileHandleForWriting.write(contentsOf: script)
          try input.fileHandleForWriting.close()
          let data = output.fileHandleForReading.readDataToEndOfFile()
          process.waitUntilExit()
          return try JSONDecoder().decode(PTY.Result.self, from: data)
        })
      }
    }
  }
}
