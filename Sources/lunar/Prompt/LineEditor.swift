import CEditLine
import Foundation

/// The line being typed at a terminal, edited through libedit: emacs keys (arrows, ctrl-A/E/K/W,
/// ctrl-L to clear the screen), history with up and down, and the user's `~/.editrc`.
///
/// The editor reads one key at a time, when its owner says a key is waiting, so that the owner can
/// also print what the host says between two keys (``hide()``, then ``show()``).
///
/// > Important: Not thread-safe: everything is called from the prompt's own thread.
final class LineEditor {
  /// What a key did.
  enum Key: Equatable {
    /// The line changed (or the cursor moved); editing goes on.
    case editing
    /// Return was pressed: the line, without its newline. A new, empty line is shown.
    case line(String)
    /// ctrl-D on an empty line.
    case end
  }

  /// Where the editor draws.
  let output: Int32
  private let inputFile: UnsafeMutablePointer<FILE>
  private let outputFile: UnsafeMutablePointer<FILE>
  private let editor: OpaquePointer
  private let history: OpaquePointer
  private let historyFile: URL?
  private let state: State
  private var closed = false

  /// What libedit's callbacks reach through the editor's client data.
  final class State {
    var prompt: UnsafeMutablePointer<CChar>
    var promptWidth: Int
    var ended = false
    /// Whether ctrl-C was pressed (when the terminal passes it as a key rather than a signal).
    var interrupted = false
    /// What Tab adds to the line up to the cursor, and what it lists when it adds nothing.
    var complete: ((String) -> (insert: String, list: [String]))?
    /// Where the editor draws (Tab's list goes there).
    var output: UnsafeMutablePointer<FILE>?

    init(prompt: String) {
      self.prompt = strdup(prompt)
      self.promptWidth = prompt.count
    }

    deinit { free(prompt) }
  }

  /// An editor on the terminal `input` and `output` (file descriptors it does not own), or `nil`
  /// when libedit cannot drive it.
  ///
  /// - Parameter historyFile: Where lines are kept between runs (read now, written after each line).
  init?(input: Int32, output: Int32, prompt: String, historyFile: URL?, historySize: Int = 1000) {
    guard let inputFile = fdopen(dup(input), "r") else { return nil }
    guard let outputFile = fdopen(dup(output), "w") else {
      fclose(inputFile)
      return nil
    }
    guard let history = lunar_history_open(Int32(historySize)) else {
      fclose(inputFile)
      fclose(outputFile)
      return nil
    }
    let state = State(prompt: prompt)
    let client = Unmanaged.passUnretained(state).toOpaque()
    guard let editor = lunar_el_open("lunar", inputFile, outputFile, outputFile, history, Self.promptFunction, client) else {
      history_end(history)
      fclose(inputFile)
      fclose(outputFile)
      return nil
    }
    self.output = output
    self.inputFile = inputFile
    self.outputFile = outputFile
    self.history = history
    self.editor = editor
    self.historyFile = historyFile
    self.state = state
    // NB: libedit's own ctrl-D cannot be told apart from an empty line in one-key mode: ours says.
    lunar_el_bind(editor, "lunar-end-or-delete", "leave on an empty line, else delete", Self.endOrDelete, "^D")
    lunar_el_bind(editor, "lunar-complete", "complete an action, a field or a command", Self.completeKey, "^I")
    lunar_el_keys_not_signals(editor)
    lunar_el_bind(editor, "lunar-interrupt", "clear the line; on an empty line twice, leave", Self.interruptKey, "^C")
    state.output = outputFile
    if let historyFile {
      try? FileManager.default.createDirectory(at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
      _ = lunar_history_load(history, historyFile.path)
    }
    // NB: from here the terminal is in raw mode and the prompt is drawn.
    lunar_el_unbuffered(editor, 1)
  }

  deinit {
    close()
  }

  /// Puts the terminal back as it was and lets libedit go; the editor is not used after.
  func close() {
    guard !closed else { return }
    closed = true
    lunar_el_unbuffered(editor, 0)
    el_end(editor)
    history_end(history)
    fclose(inputFile)
    fclose(outputFile)
  }

  /// Reads and applies one key (call it when the terminal has input).
  func key() -> Key {
    var count: Int32 = 0
    let buffer = el_gets(editor, &count)
    if state.ended { return .end }
    guard let buffer, count > 0, buffer[Int(count) - 1] == CChar(UInt8(ascii: "\n")) else { return .editing }
    var bytes = UnsafeBufferPointer(start: buffer, count: Int(count) - 1).map { UInt8(bitPattern: $0) }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    let line = String(decoding: bytes, as: UTF8.self)
    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
      _ = lunar_history_enter(history, line)
      if let historyFile { _ = lunar_history_save(history, historyFile.path) }
    }
    // NB: one-key mode keeps the finished line; turning it off and on starts an empty one (and
    //     draws the prompt), as libedit's own readline emulation does.
    lunar_el_unbuffered(editor, 0)
    lunar_el_unbuffered(editor, 1)
    return .line(line)
  }

  /// The prompt shown before the line.
  var prompt: String {
    get { String(cString: state.prompt) }
    set {
      free(state.prompt)
      state.prompt = strdup(newValue)
      state.promptWidth = newValue.count
    }
  }

  /// Takes the prompt and the line off the screen, leaving the cursor at the start of the row
  /// where the prompt began, ready for other output.
  func hide() {
    fflush(outputFile)
    let line = el_line(editor).pointee
    let before = line.buffer.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: line.cursor - $0), as: UTF8.self) } ?? ""
    let columns = max(Self.columns(of: output), 1)
    let row = (state.promptWidth + before.count) / columns
    Self.write(output, "\r" + (row > 0 ? "\u{1B}[\(row)A" : "") + "\u{1B}[J")
  }

  /// Draws the prompt and the line again, from the start of the cursor's row.
  func show() {
    lunar_el_refresh(editor)
    fflush(outputFile)
  }

  /// Writes `text` to the file descriptor `fd`, all of it.
  static func write(_ fd: Int32, _ text: String) {
    write(fd, Array(text.utf8))
  }

  /// Writes `bytes` to the file descriptor `fd`, all of them.
  static func write(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }

  /// The terminal's width in columns (80 when it does not say).
  static func columns(of fd: Int32) -> Int {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  private static let promptFunction: lunar_prompt_function = { editor in
    guard let editor, let client = lunar_el_client(editor) else { return nil }
    return Unmanaged<State>.fromOpaque(client).takeUnretainedValue().prompt
  }

  /// What Tab completes: given the line up to the cursor, the text to insert and the candidates
  /// to list (see ``ActionCompletion``).
  var complete: ((String) -> (insert: String, list: [String]))? {
    get { state.complete }
    set { state.complete = newValue }
  }

  /// Empties the line being typed (ctrl-C).
  func clearLine() {
    let line = el_line(editor).pointee
    guard let buffer = line.buffer, let last = line.lastchar, last > buffer else { return }
    _ = el_cursor(editor, Int32(last - (line.cursor ?? last)))
    el_deletestr(editor, Int32(last - buffer))
  }

  /// Whether the line being typed is empty.
  var lineIsEmpty: Bool {
    let line = el_line(editor).pointee
    return line.buffer == line.lastchar
  }

  /// Takes the ctrl-C pressed since the last call, if any.
  func takeInterrupt() -> Bool {
    defer { state.interrupted = false }
    return state.interrupted
  }

  private static let interruptKey: lunar_key_function = { editor, _ in
    guard let editor, let client = lunar_el_client(editor) else { return UInt8(CC_ERROR) }
    Unmanaged<State>.fromOpaque(client).takeUnretainedValue().interrupted = true
    return UInt8(CC_NORM)
  }

  private static let completeKey: lunar_key_function = { editor, _ in
    guard let editor, let client = lunar_el_client(editor) else { return UInt8(CC_ERROR) }
    let state = Unmanaged<State>.fromOpaque(client).takeUnretainedValue()
    let line = el_line(editor).pointee
    guard let complete = state.complete, let buffer = line.buffer, let cursor = line.cursor else { return UInt8(CC_ERROR) }
    let before = String(decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
    let (insert, list) = complete(before)
    if !insert.isEmpty {
      _ = el_insertstr(editor, insert)
      return UInt8(CC_REFRESH)
    }
    guard !list.isEmpty, let output = state.output else { return UInt8(CC_REFRESH_BEEP) }
    // NB: the candidates go below the line, which libedit then draws again under them.
    fputs("\r\n" + list.joined(separator: "  ") + "\r\n", output)
    fflush(output)
    return UInt8(CC_REDISPLAY)
  }

  private static let endOrDelete: lunar_key_function = { editor, _ in
    guard let editor, let client = lunar_el_client(editor) else { return UInt8(CC_ERROR) }
    let line = el_line(editor).pointee
    if line.buffer == line.lastchar {
      Unmanaged<State>.fromOpaque(client).takeUnretainedValue().ended = true
      return UInt8(CC_EOF)
    }
    guard let cursor = line.cursor, let last = line.lastchar, cursor < last else { return UInt8(CC_ERROR) }
    // NB: deletes the character under the cursor: step over it, then delete backwards.
    _ = el_cursor(editor, 1)
    el_deletestr(editor, 1)
    return UInt8(CC_REFRESH)
  }
}
