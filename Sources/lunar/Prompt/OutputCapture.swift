import Foundation
import LunarHostSupport

/// Standard output (and standard error, when it is the same terminal) sent into a pipe, so that
/// the prompt can print what the host writes above the line being typed instead of into it.
///
/// Everything written to the two descriptors goes through the pipe in the order it was written:
/// `print`, `FileHandle.standardError`, a script's `print`. ``restore()`` puts the terminal back.
///
/// NB: `@unchecked Sendable`: the prompt's thread reads the pipe; ``restore()`` is called once, by
/// the owner, after that thread has stopped.
final class OutputCapture: @unchecked Sendable {
  /// The terminal standard output was (a descriptor of its own).
  let terminal: Int32
  /// Where the captured output is read.
  let pipe: Int32
  private let savedError: Int32?
  private var restored = false

  /// Starts capturing, or `nil` when no pipe could be made.
  init?() {
    var ends: [Int32] = [0, 0]
    guard Foundation.pipe(&ends) == 0 else { return nil }
    flushStandardOutput()
    terminal = dup(STDOUT_FILENO)
    pipe = ends[0]
    savedError = Self.sameTerminal(STDERR_FILENO, STDOUT_FILENO) ? dup(STDERR_FILENO) : nil
    // NB: colours and progress lines go on as at the terminal, which the pipe leads to.
    Terminal.capturedTerminals.withLock { $0.formUnion(savedError == nil ? [STDOUT_FILENO] : [STDOUT_FILENO, STDERR_FILENO]) }
    dup2(ends[1], STDOUT_FILENO)
    if savedError != nil { dup2(ends[1], STDERR_FILENO) }
    close(ends[1])
    // NB: standard output now is a pipe, which C would buffer in blocks: keep it by lines, as on
    //     the terminal, so that each line shows when it is written.
    lineBufferStandardOutput()
  }

  /// Puts the terminal back on standard output and standard error. What is still in the pipe
  /// should have been read first (``drain(pause:limit:)``).
  ///
  /// - Parameter closing: Whether to close the pipe and the copy of the terminal; `false` when
  ///   another thread may still use them (a closed descriptor's number could be reused).
  func restore(closing: Bool = true) {
    guard !restored else { return }
    restored = true
    flushStandardOutput()
    dup2(terminal, STDOUT_FILENO)
    if let savedError {
      dup2(savedError, STDERR_FILENO)
      close(savedError)
    }
    if closing {
      close(terminal)
      close(pipe)
    }
    Terminal.capturedTerminals.withLock { $0.subtract([STDOUT_FILENO, STDERR_FILENO]) }
  }

  /// What the pipe holds now, and what follows within `pause` milliseconds of the previous write
  /// (for at most `limit` milliseconds in all; `nil`: until the pipe is empty, however long).
  func drain(pause: Int32 = 0, limit: Int? = 30) -> [UInt8] {
    var all: [UInt8] = []
    let deadline = limit.map { ContinuousClock.now.advanced(by: .milliseconds($0)) }
    while deadline.map({ ContinuousClock.now < $0 }) ?? true {
      var check = pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)
      guard poll(&check, 1, pause) > 0, check.revents & Int16(POLLIN) != 0 else { return all }
      let chunk = read()
      if chunk.isEmpty { return all }
      all += chunk
    }
    return all
  }

  /// One read from the pipe (empty at its end).
  func read() -> [UInt8] {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { Foundation.read(pipe, $0.baseAddress, $0.count) }
    return count > 0 ? Array(chunk[0..<count]) : []
  }

  /// Whether `fd` is a terminal, the same one as `other`.
  private static func sameTerminal(_ fd: Int32, _ other: Int32) -> Bool {
    guard isatty(fd) != 0, isatty(other) != 0 else { return false }
    var first = stat()
    var second = stat()
    guard fstat(fd, &first) == 0, fstat(other, &second) == 0 else { return false }
    return first.st_rdev == second.st_rdev
  }
}
