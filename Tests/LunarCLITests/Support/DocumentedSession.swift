import Foundation

/// A fenced block of README.md or `docs/` that shows commands and what they print:
///
/// ````
/// ```
/// $ scripts/lunar check
/// ✔ examples/counter/feature.lua  Counter  …
/// ```
/// ````
///
/// Lines starting with `$ ` are commands (a line ending in `\` goes on on the next); the others are
/// what they print, stdout and stderr together. In what they print, `…` stands for any text, and a
/// line that is only `…` for any number of lines; times (`2.3 ms`, `0.4 s`) may differ.
struct DocumentedSession: CustomStringConvertible {
  let file: String
  let line: Int
  var commands: [String]
  var expected: [String]

  var description: String { "\(file):\(line)" }

  /// The sessions of a Markdown text whose commands all run `scripts/lunar` and can run unattended:
  /// none typed at a prompt, none that serve until stopped, none that reach the network.
  static func sessions(in text: String, file: String) -> [DocumentedSession] {
    var sessions: [DocumentedSession] = []
    var block: [String]?
    var start = 0
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
      if line.hasPrefix("```") {
        if let lines = block {
          if let session = session(lines, file: file, line: start) { sessions.append(session) }
          block = nil
        } else {
          block = []
          start = number + 2
        }
      } else {
        block?.append(line)
      }
    }
    return sessions
  }

  private static func session(_ lines: [String], file: String, line: Int) -> DocumentedSession? {
    guard lines.first?.hasPrefix("$ ") == true else { return nil }
    var commands: [String] = []
    var expected: [String] = []
    var continuing = false
    for text in lines {
      if continuing {
        commands[commands.count - 1] += "\n" + text
        continuing = text.hasSuffix("\\")
      } else if text.hasPrefix("$ ") {
        commands.append(String(text.dropFirst(2)))
        continuing = text.hasSuffix("\\")
      } else {
        expected.append(text)
      }
    }
    let unattended = commands.allSatisfy { command in
      command.contains("scripts/lunar ") && !unattendedExceptions.contains { command.contains($0) }
    }
    guard unattended, !expected.contains(where: { $0.hasPrefix("> ") }) else { return nil }
    while expected.last?.isEmpty == true { expected.removeLast() }
    return DocumentedSession(file: file, line: line, commands: commands, expected: expected)
  }

  /// What a command may hold that keeps it from running here: a server, the network, a benchmark.
  static let unattendedExceptions = ["--devtools", "--deps live", "--watch", "bench", "lunar host"]

  /// Whether `actual` (the output's lines) is what the block shows.
  func matches(_ actual: [String]) -> Bool {
    Self.match(expected[...], actual[...])
  }

  private static func match(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
    guard let first = expected.first else { return actual.isEmpty }
    if first == "…" {
      return (actual.startIndex...actual.endIndex).contains { match(expected.dropFirst(), actual[$0...]) }
    }
    guard let line = actual.first, lineMatches(first, line) else { return false }
    return match(expected.dropFirst(), actual.dropFirst())
  }

  /// One line against its documented form: `…` for any text, times for any time.
  static func lineMatches(_ expected: String, _ actual: String) -> Bool {
    let time = try! NSRegularExpression(pattern: #"[0-9]+(\\\.[0-9]+)? (ms|µs|s)\b"#)
    let pieces = expected.components(separatedBy: "…").map { piece in
      let escaped = NSRegularExpression.escapedPattern(for: piece)
      return time.stringByReplacingMatches(
        in: escaped, range: NSRange(escaped.startIndex..., in: escaped), withTemplate: #"[0-9]+(\\.[0-9]+)? $2"#)
    }
    return actual.range(of: "^" + pieces.joined(separator: ".*") + "$", options: .regularExpression) != nil
  }
}
