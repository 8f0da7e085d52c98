import Foundation
import LunarHostSupport

/// The prompt of `lunar run` and `lunar host` at a terminal: a line editor with history, and the
/// host's output printed above the line being typed, which is then drawn again.
///
/// ```swift
/// if let prompt = Prompt.start(prompt: "> ", historyFile: PromptHistory.file(for: folder)) {
///   for await line in prompt.lines { … }   // print as usual: it shows above the prompt
///   prompt.close()
/// }
/// ```
///
/// The prompt runs on a thread of its own, which alone touches the terminal: it reads keys as they
/// come, and the host's output from a pipe that standard output (and standard error, when it is
/// the same terminal) are sent into while the prompt is open.
///
/// > Important: Call ``close()`` before the process ends, or what was printed last is lost and the
/// > terminal stays in raw mode.
final class Prompt: @unchecked Sendable {
  /// The lines typed, each once return is pressed; ends with ctrl-D on an empty line.
  let lines: AsyncStream<StandardInput.Line>

  private let continuation: AsyncStream<StandardInput.Line>.Continuation
  private let capture: OutputCapture
  /// A pipe whose bytes wake the thread up: a new prompt to show, or the end.
  private let wake: (read: Int32, write: Int32)
  private let stopped = DispatchSemaphore(value: 0)
  /// The terminal's settings before the editor changed them.
  private var terminalSettings = termios()
  // NB: `lock` guards what the main actor asks of the thread, and `closed`.
  private let lock = NSLock()
  private var requestedPrompt: String?
  private var stopping = false
  private var closed = false
  /// Whether the thread is inside a key, where libedit may wait for the rest of a sequence.
  private var readingKey = false
  /// What Tab completes (``setCompletion(_:)``).
  private var completion = ActionCompletion.none
  /// Whether the last key was ctrl-C on an empty line: another one leaves.
  private var interruptedEmpty = false

  /// Opens the prompt when standard input and output are both a terminal and libedit can drive it;
  /// `nil` otherwise (then read ``StandardInput/lines()``).
  ///
  /// - Parameter historyFile: Where the lines typed are kept between runs (see ``PromptHistory``).
  static func start(prompt: String, historyFile: URL?) -> Prompt? {
    guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else { return nil }
    // NB: libedit reads and draws characters in the locale's encoding, which Swift never sets.
    setlocale(LC_CTYPE, "")
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    guard let capture = OutputCapture() else {
      Foundation.close(ends[0])
      Foundation.close(ends[1])
      return nil
    }
    let session = Prompt(capture: capture, wake: (ends[0], ends[1]))
    tcgetattr(STDIN_FILENO, &session.terminalSettings)
    let opened = DispatchSemaphore(value: 0)
    let editorOpened = LockIsolatedFlag()
    let thread = Thread {
      // NB: the editor is made, used and released on this thread only.
      guard let editor = LineEditor(input: STDIN_FILENO, output: capture.terminal, prompt: prompt, historyFile: historyFile) else {
        opened.signal()
        return
      }
      editor.complete = { [unowned session] text in session.lock.withLock { session.completion }.completion(of: text) }
      editorOpened.set()
      opened.signal()
      session.run(editor)
    }
    thread.name = "lunar.Prompt"
    thread.start()
    opened.wait()
    guard editorOpened.value else {
      capture.restore()
      Foundation.close(ends[0])
      Foundation.close(ends[1])
      return nil
    }
    return session
  }

  /// What Tab completes from now on (the feature's actions, after a reload).
  func setCompletion(_ completion: ActionCompletion) {
    lock.withLock { self.completion = completion }
  }

  private init(capture: OutputCapture, wake: (read: Int32, write: Int32)) {
    self.capture = capture
    self.wake = wake
    (lines, continuation) = AsyncStream<StandardInput.Line>.makeStream(bufferingPolicy: .unbounded)
  }

  /// Shows `text` as the prompt from now on (`dogs> ` after `:use dogs`).
  func setPrompt(_ text: String) {
    lock.withLock { requestedPrompt = text }
    LineEditor.write(wake.write, "p")
  }

  /// Prints what is left to print, takes the prompt off the screen, puts the terminal back as it
  /// was and ends ``lines``. Later output goes straight to the terminal.
  func close() {
    let alreadyClosed = lock.withLock {
      defer { closed = true; stopping = true }
      return closed
    }
    guard !alreadyClosed else { return }
    flushStandardOutput()
    LineEditor.write(wake.write, "q")
    // NB: bounded: a prompt that cannot finish must not keep the process from ending.
    var finished = stopped.wait(timeout: .now() + .seconds(1)) == .success
    if !finished && !lock.withLock({ readingKey }) {
      // NB: a thread that is only slow to be scheduled (a busy machine) still prints what is left.
      finished = stopped.wait(timeout: .now() + .seconds(30)) == .success
    }
    guard finished else {
      // NB: the thread waits for the rest of a key that never comes (a lone escape): print what is
      //     left and put the terminal back here, or the shell after us would get it in raw mode.
      LineEditor.write(capture.terminal, capture.drain(limit: nil))
      tcsetattr(STDIN_FILENO, TCSANOW, &terminalSettings)
      capture.restore(closing: false)
      return
    }
    capture.restore()
    Foundation.close(wake.write)
    Foundation.close(wake.read)
  }

  // MARK: - The thread

  private func run(_ editor: LineEditor) {
    // NB: output after its last newline waits for the rest of its line, a little while at most.
    var partial: [UInt8] = []
    var reading = true
    while true {
      var fds = [
        pollfd(fd: capture.pipe, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        pollfd(fd: reading ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 3, partial.isEmpty ? -1 : 50)
      if ready < 0 {
        if errno == EINTR { continue }
        break
      }
      if ready == 0 {
        show(partial + [UInt8(ascii: "\n")], on: reading ? editor : nil)
        partial = []
        continue
      }
      if fds[0].revents != 0 {
        // NB: and what follows closely, so that a burst of lines is drawn once, not line by line.
        partial = show(partial + capture.read() + capture.drain(pause: 2), on: reading ? editor : nil)
      }
      if fds[1].revents != 0 {
        var byte: UInt8 = 0
        _ = read(wake.read, &byte, 1)
        let (prompt, stop) = lock.withLock { () -> (String?, Bool) in
          defer { requestedPrompt = nil }
          return (requestedPrompt, stopping)
        }
        if stop {
          finish(editor, partial: partial, hiding: reading)
          return
        }
        if let prompt, prompt != editor.prompt {
          editor.hide()
          editor.prompt = prompt
          editor.show()
        }
      }
      if fds[2].revents & Int16(POLLIN) != 0 {
        lock.withLock { readingKey = true }
        let key = editor.key()
        lock.withLock { readingKey = false }
        if editor.takeInterrupt() {
          if interrupt(editor) { reading = false }
          continue
        }
        interruptedEmpty = false
        switch key {
        case .editing: break
        case let .line(line): continuation.yield(.text(line))
        case .end:
          // NB: the prompt goes; what the host prints while it stops is printed plainly.
          editor.hide()
          reading = false
          continuation.finish()
        }
      } else if fds[2].revents != 0 {
        // NB: the terminal hung up.
        reading = false
        continuation.finish()
      }
    }
    finish(editor, partial: partial, hiding: reading)
  }

  /// ctrl-C: clears the line; on an empty line, says how to leave, and leaves when pressed again
  /// (as ctrl-D does). Returns whether the prompt ended.
  private func interrupt(_ editor: LineEditor) -> Bool {
    if !editor.lineIsEmpty {
      interruptedEmpty = false
      editor.hide()
      editor.clearLine()
      editor.show()
      return false
    }
    if interruptedEmpty {
      editor.hide()
      continuation.finish()
      return true
    }
    interruptedEmpty = true
    editor.hide()
    LineEditor.write(capture.terminal, terminalLines(ArraySlice(Array("(ctrl-C again, ctrl-D or :quit to leave)\n".utf8))))
    editor.show()
    return false
  }

  /// Prints the complete lines of `output` above the prompt of `editor` (or plainly, when the
  /// prompt is gone); returns what follows the last newline.
  @discardableResult
  private func show(_ output: [UInt8], on editor: LineEditor?) -> [UInt8] {
    guard let last = output.lastIndex(of: UInt8(ascii: "\n")) else { return output }
    editor?.hide()
    LineEditor.write(capture.terminal, terminalLines(output[...last]))
    editor?.show()
    return Array(output[(last + 1)...])
  }

  private func finish(_ editor: LineEditor, partial: [UInt8], hiding: Bool) {
    var rest = partial + capture.drain(limit: nil)
    if let last = rest.last, last != UInt8(ascii: "\n") { rest.append(UInt8(ascii: "\n")) }
    if hiding { editor.hide() }
    LineEditor.write(capture.terminal, terminalLines(rest[...]))
    editor.close()
    continuation.finish()
    stopped.signal()
  }

  /// `text` with each newline made a carriage return and a newline, when the terminal does not
  /// do it itself (in raw mode, it may not).
  private func terminalLines(_ text: ArraySlice<UInt8>) -> [UInt8] {
    var settings = termios()
    if tcgetattr(capture.terminal, &settings) == 0,
      settings.c_oflag & tcflag_t(OPOST) != 0, settings.c_oflag & tcflag_t(ONLCR) != 0
    {
      return Array(text)
    }
    var lines: [UInt8] = []
    lines.reserveCapacity(text.count + text.count / 16)
    var previous: UInt8 = 0
    for byte in text {
      if byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r") { lines.append(UInt8(ascii: "\r")) }
      lines.append(byte)
      previous = byte
    }
    return lines
  }
}

/// A flag set on one thread and read on another.
private final class LockIsolatedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var isSet = false

  func set() { lock.withLock { isSet = true } }
  var value: Bool { lock.withLock { isSet } }
}
