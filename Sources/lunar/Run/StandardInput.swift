import Foundation

/// Lines of standard input as an async sequence, read on a thread of their own so that the main
/// actor (where stores and effects run) never blocks waiting for a keystroke.
enum StandardInput {
  static var isTerminal: Bool { isatty(STDIN_FILENO) != 0 }

  static func lines() -> AsyncStream<String> {
    let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
    let thread = Thread {
      while let line = readLine(strippingNewline: true) {
        continuation.yield(line)
      }
      continuation.finish()
    }
    thread.start()
    return stream
  }
}
