import Foundation

/// Colours and output for a terminal: plain text when the output is not one, when `NO_COLOR` is set
/// (to anything but the empty text), or with `--color never`; colours always with `--color always`.
public struct Terminal: Sendable {
  /// Whether it writes colours.
  public let colors: Bool

  public init(colors: Bool) {
    self.colors = colors
  }

  public static var standardOutput: Terminal { Terminal(colors: ColorChoice.current.colors(for: STDOUT_FILENO)) }
  public static var standardError: Terminal { Terminal(colors: ColorChoice.current.colors(for: STDERR_FILENO)) }

  /// Whether `descriptor` is a terminal (and not a pipe or a file), or stands for one (see
  /// ``capturedTerminals``).
  public static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) != 0 || capturedTerminals.withLock { $0.contains(descriptor) }
  }

  /// Descriptors that were a terminal and are sent into a pipe that ends at that terminal (the
  /// prompt does so with standard output, to print what the host writes above the line being
  /// typed): they still count as a terminal, for colours and progress lines.
  public static let capturedTerminals = Locked(Set<Int32>())

  public func paint(_ text: String, _ code: String) -> String {
    colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  public func red(_ text: String) -> String { paint(text, "31") }
  public func green(_ text: String) -> String { paint(text, "32") }
  public func yellow(_ text: String) -> String { paint(text, "33") }
  public func blue(_ text: String) -> String { paint(text, "34") }
  public func dim(_ text: String) -> String { paint(text, "2") }
  public func bold(_ text: String) -> String { paint(text, "1") }

  /// Colours a diff (``LuaNotation/diff(_:_:markers:)``): removed lines red (`−` in a test
  /// failure's diff, `-` at the start of a line in a state's), added lines green.
  public func diff(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let trimmed = line.drop { $0 == " " }
      if trimmed.hasPrefix("−") || line.hasPrefix("-") { return red(String(line)) }
      if trimmed.hasPrefix("+") { return green(String(line)) }
      return String(line)
    }.joined(separator: "\n")
  }
}

/// Writes to standard error.
public func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}
