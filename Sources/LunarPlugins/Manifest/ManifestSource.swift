/// The text of a `plugin.lua`, to point an error about a field at the field's line.
///
/// NB: `return lunar.plugin { … }` is a tail call: by the time anything checks the fields, the
///     script's frame is gone and Lua cannot say where a field was written. The text can.
struct ManifestSource {
  /// The lines, with comments cut off.
  let lines: [Substring]

  init(_ text: String?) {
    lines = (text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.split(separator: "--", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }
  }

  /// The line of `lunar.plugin`, from 1.
  var pluginLine: Int? {
    lines.firstIndex { $0.contains("lunar.plugin") }.map { $0 + 1 }
  }

  /// The line where the field at `path` is written (`["capabilities", "http", "hosts"]`): each
  /// key is looked for after the previous one, from the `lunar.plugin` line on. Falls back to
  /// the deepest key found, then to the `lunar.plugin` line.
  func line(of path: [String]) -> Int? {
    var found = pluginLine
    var start = (pluginLine ?? 1) - 1
    for key in path {
      guard let index = lines[start...].firstIndex(where: { Self.assigns(key, in: $0) }) else { break }
      found = index + 1
      start = index
    }
    return found
  }

  /// Whether `line` assigns `key` (`key =`, `["key"] =`), and does not just compare (`==`).
  private static func assigns(_ key: String, in line: Substring) -> Bool {
    var rest = line[...]
    while let range = rest.range(of: key) {
      let before = rest[..<range.lowerBound].last
      var after = rest[range.upperBound...]
      rest = after
      if let before, before.isLetter || before.isNumber || before == "_" || before == "." { continue }
      after = after.drop { $0 == "\"" || $0 == "'" || $0 == "]" || $0 == " " || $0 == "\t" }
      if after.hasPrefix("=") && !after.hasPrefix("==") { return true }
    }
    return false
  }
}
