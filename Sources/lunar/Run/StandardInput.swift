import Foundation
import LuaBridge

/// Lines of standard input as an async sequence, read on a thread of their own so that the main
/// actor (where stores and effects run) never blocks waiting for a keystroke.
///
/// The reader stays a few lines ahead of the session and no more: a producer faster than the
/// feature (a million piped actions) waits in the pipe, not in the host's memory. A line longer
/// than ``maximumLineLength`` is not kept: it arrives as ``Line/tooLong(_:)`` once its end is read.
enum StandardInput {
  static var isTerminal: Bool { isatty(STDIN_FILENO) != 0 }

  /// The longest line kept (16 MiB): a longer one is skipped and reported.
  static let maximumLineLength = 16 << 20
  /// How many lines the reader may hold before the session takes them.
  static let readAhead = 64

  /// One line of input.
  enum Line: Sendable {
    /// A line, without its line end (`\n` or `\r\n`), and without the byte order mark that may
    /// open the input.
    case text(String)
    /// A line of this many bytes, over ``maximumLineLength``: skipped.
    case tooLong(Int)
    /// A line that is not UTF-8 text: the offset of its first bad byte, and that byte. Skipped,
    /// never repaired: a repaired line would be an action the user did not write.
    case notText(offset: Int, byte: UInt8)

    /// Why a line that is not ``text(_:)`` was skipped, for the error event.
    var problem: String? {
      switch self {
      case .text: nil
      case let .tooLong(length):
        "a line of \(length) bytes is longer than an input line may be (\(StandardInput.maximumLineLength >> 20) MiB); it was skipped"
      case let .notText(offset, byte):
        "a line is not UTF-8 text (byte \(offset) is 0x\(String(byte, radix: 16, uppercase: true))); input lines are UTF-8, and it was skipped"
      }
    }
  }

  static func lines() -> Lines {
    let (stream, continuation) = AsyncStream<Line>.makeStream(bufferingPolicy: .unbounded)
    let slots = Slots(readAhead)
    let thread = Thread {
      var reader = LineReader(descriptor: STDIN_FILENO, maximumLength: maximumLineLength)
      while true {
        slots.wait()
        guard let line = reader.next() else { break }
        continuation.yield(line)
      }
      continuation.finish()
    }
    thread.start()
    return Lines(stream: stream, slots: slots)
  }

  /// The lines, each taken from the reader's budget of ``readAhead`` as it is consumed.
  struct Lines: AsyncSequence {
    let stream: AsyncStream<Line>
    let slots: Slots

    func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator(), slots: slots) }

    struct Iterator: AsyncIteratorProtocol {
      var base: AsyncStream<Line>.AsyncIterator
      let slots: Slots

      mutating func next() async -> Line? {
        let line = await base.next()
        if line != nil { slots.signal() }
        return line
      }
    }
  }
}

/// A count of free places the reader waits on (a DispatchSemaphore must not be released while
/// taken, and the reader may still hold places when the session stops).
final class Slots: @unchecked Sendable {
  private let condition = NSCondition()
  private var free: Int

  init(_ count: Int) { free = count }

  func wait() {
    condition.lock()
    while free == 0 { condition.wait() }
    free -= 1
    condition.unlock()
  }

  func signal() {
    condition.lock()
    free += 1
    condition.signal()
    condition.unlock()
  }
}

/// Splits what a file descriptor delivers into lines, holding at most `maximumLength` bytes of one.
///
/// Lines end with `\n` or `\r\n` (files written on Windows), and a UTF-8 byte order mark opening the
/// input is dropped; a line that is not UTF-8 arrives as ``StandardInput/Line/notText(offset:byte:)``.
struct LineReader {
  let descriptor: Int32
  let maximumLength: Int
  private var buffer: [UInt8] = []
  private var start = 0
  /// Where the search for the next newline resumes: bytes before it hold none.
  private var scanned = 0
  private var ended = false
  /// Whether a line was returned already (only the first may open with a byte order mark).
  private var started = false

  init(descriptor: Int32, maximumLength: Int) {
    self.descriptor = descriptor
    self.maximumLength = maximumLength
  }

  /// The next line, or `nil` at the end of input (a last line without newline is a line).
  mutating func next() -> StandardInput.Line? {
    var skipped = 0  // bytes of an over-long line dropped so far
    while true {
      if let newline = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
        let length = newline - start
        defer { start = newline + 1; scanned = start }
        if skipped > 0 { return .tooLong(skipped + length) }
        return line(buffer[start..<newline])
      }
      scanned = buffer.count
      if buffer.count - start > maximumLength {
        // NB: drop what is held of an over-long line; only its length is reported.
        skipped += buffer.count - start
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
      }
      if ended {
        guard start < buffer.count || skipped > 0 else { return nil }
        defer { buffer.removeAll(); start = 0; scanned = 0 }
        if skipped > 0 { return .tooLong(skipped + buffer.count - start) }
        return line(buffer[start...])
      }
      if start > 0 {
        buffer.removeFirst(start)
        scanned -= start
        start = 0
      }
      fill()
    }
  }

  /// The line of `bytes` (its `\n` left out): a `\r` before the newline and the first line's byte
  /// order mark dropped, checked as UTF-8.
  private mutating func line(_ bytes: ArraySlice<UInt8>) -> StandardInput.Line {
    var bytes = bytes
    if !started {
      started = true
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    }
    if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
    let text = LuaString(bytes: bytes)
    if let string = text.string { return .text(string) }
    let offset = text.firstInvalidUTF8Offset ?? 0
    return .notText(offset: offset, byte: text.bytes[offset])
  }

  private mutating func fill() {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count > 0 {
      buffer.append(contentsOf: chunk[0..<count])
    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
      ended = true
    }
  }
}
