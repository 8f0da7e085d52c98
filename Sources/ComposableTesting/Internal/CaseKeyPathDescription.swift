import Composable
import Foundation

/// A readable name for a case key path in a failure message: `\.factResponse`.
///
/// Case key paths go through computed properties, which a key path cannot name at run time (it
/// prints `\Case<Action>.<computed 0x…>`). The test wrote the name at the call site, so it is read
/// from there; failing that, the key path's own description is used.
func caseKeyPathDescription(_ keyPath: AnyKeyPath, at location: EffectOrigin) -> String {
  let description = String(describing: keyPath)
  guard description.contains("<computed") else { return description }
  return sourceCaseKeyPath(file: "\(location.filePath)", line: Int(location.line)) ?? "(a case key path)"
}

/// The first `\.a.b[id: 1].c` written on `line` of `file`, if the file can be read.
private func sourceCaseKeyPath(file: String, line: Int) -> String? {
  guard
    line > 0,
    let source = try? String(contentsOfFile: file, encoding: .utf8)
  else { return nil }
  let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
  guard line <= lines.count else { return nil }
  let text = String(lines[line - 1])
  let pattern = #"\\\.(?:[A-Za-z_][A-Za-z0-9_]*|\[[^\]]*\])(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[^\]]*\])*"#
  guard
    let expression = try? NSRegularExpression(pattern: pattern),
    let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
    let range = Range(match.range, in: text)
  else { return nil }
  return String(text[range])
}
