import ArgumentParser
import Foundation
import LuaFeatures

/// A machine-readable report of a `lunar test` run, for CI: JUnit XML (`--report junit FILE`),
/// with a `testsuite` per test file and a `testcase` per test, or TAP (`--report tap FILE`), a
/// line per test.
enum TestReportFile {
  /// One test's result, with the file it was declared in (as shown).
  typealias Entry = (file: String, result: LuaTestResult)

  /// A report's format.
  enum Format: String, CaseIterable {
    case junit, tap

    /// The report of `entries` in this format.
    func text(_ entries: [Entry]) -> String {
      switch self {
      case .junit: TestReportFile.junit(entries)
      case .tap: TestReportFile.tap(entries)
      }
    }
  }

  /// One `--report FORMAT FILE`.
  struct Request: Equatable {
    var format: Format
    var file: String
  }

  /// The requests in the values of `--report`, read as `FORMAT FILE` pairs.
  ///
  /// NB: argument-parser hands the values of every `--report` as one list (each takes the values
  ///     up to the next option), so a path written after `FORMAT FILE` lands here too.
  static func requests(_ values: [String]) throws -> [Request] {
    let formats = Format.allCases.map(\.rawValue).joined(separator: " or ")
    var requests: [Request] = []
    var rest = values[...]
    while let name = rest.popFirst() {
      guard let format = Format(rawValue: name) else {
        let after = requests.last.map { " (after --report \($0.format.rawValue) \($0.file))" } ?? ""
        throw ValidationError(
          "unknown report format \"\(name)\"\(after): --report takes \(formats) and a file, as in --report junit report.xml; " +
            "write the test paths before --report")
      }
      guard let file = rest.popFirst() else {
        throw ValidationError("--report \(name) needs a file to write, as in --report \(name) report.\(format == .junit ? "xml" : "tap")")
      }
      requests.append(Request(format: format, file: file))
    }
    return requests
  }

  static func seconds(_ duration: Duration) -> String {
    String(format: "%.4f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
  }

  /// JUnit XML: `<testsuites>`, a `<testsuite>` per file, a `<testcase>` per test, a `<failure>`
  /// per failure (its first line as `message`, the whole text inside).
  static func junit(_ entries: [Entry]) -> String {
    var files: [String] = []
    var byFile: [String: [LuaTestResult]] = [:]
    for entry in entries {
      if byFile[entry.file] == nil { files.append(entry.file) }
      byFile[entry.file, default: []].append(entry.result)
    }
    let failed = entries.filter { !$0.result.passed }.count
    let total = entries.reduce(Duration.zero) { $0 + $1.result.duration }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="lunar test" tests="\#(entries.count)" failures="\#(failed)" time="\#(seconds(total))">"#,
    ]
    for file in files {
      let results = byFile[file] ?? []
      let time = results.reduce(Duration.zero) { $0 + $1.duration }
      lines.append(
        #"  <testsuite name="\#(escape(file))" tests="\#(results.count)" failures="\#(results.filter { !$0.passed }.count)" time="\#(seconds(time))">"#)
      for result in results {
        let open = #"    <testcase name="\#(escape(result.name))" classname="\#(escape(file))" time="\#(seconds(result.duration))""#
        guard !result.passed else {
          lines.append(open + "/>")
          continue
        }
        lines.append(open + ">")
        for failure in result.failures {
          let text = (failure.location.map { "\($0): " } ?? "") + failure.message
          let headline = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
          lines.append(#"      <failure message="\#(escape(headline))">\#(escape(text))</failure>"#)
        }
        lines.append("    </testcase>")
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// TAP version 13: `ok N - file: name`, or `not ok` with the failures as a YAML block.
  static func tap(_ entries: [Entry]) -> String {
    var lines = ["TAP version 13", "1..\(entries.count)"]
    for (index, entry) in entries.enumerated() {
      let name = "\(entry.file): \(entry.result.name)".replacingOccurrences(of: "#", with: "\\#")
      lines.append("\(entry.result.passed ? "ok" : "not ok") \(index + 1) - \(name)")
      guard !entry.result.passed else { continue }
      lines.append("  ---")
      lines.append("  failures:")
      for failure in entry.result.failures {
        lines.append("    - location: \(failure.location.map(quoted) ?? "~")")
        lines.append("      message: |")
        for line in failure.message.split(separator: "\n", omittingEmptySubsequences: false) {
          lines.append("        " + line)
        }
      }
      lines.append("  ...")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// `text` for an XML attribute or element: markup escaped, and characters XML 1.0 cannot hold
  /// (control characters but tab and newlines) dropped.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\n": out += "&#10;"
      case "\t", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value >= 0x20 { out.unicodeScalars.append(scalar) }
      }
    }
    return out
  }
}
