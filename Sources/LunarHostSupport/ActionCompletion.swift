/// What Tab completes at the prompt, from the feature's declarations: action types and paths to
/// children's actions (`dogs.breedTapped`, `todos[1].toggle`), an action's fields (`breed=`), and
/// `:` commands.
///
/// ```swift
/// let completion = ActionCompletion(paths: [("todos[].toggle", []), ("add", ["title"])], commands: ["state"])
/// completion.complete("to")          // (["todos["], …): the id comes next
/// completion.complete("todos[1].t")  // (["todos[1].toggle"], …)
/// completion.complete("add ti")      // (["title="], …)
/// ```
public struct ActionCompletion: Sendable, Equatable {
  /// The actions, as paths with `[]` where an element's id goes, and their field names.
  public var paths: [String: [String]]
  /// The names of the `:` commands, without the colon.
  public var commands: [String]

  public init(paths: [(path: String, fields: [String])], commands: [String]) {
    self.paths = Dictionary(paths.map { ($0.path, $0.fields) }, uniquingKeysWith: { first, _ in first })
    self.commands = commands
  }

  /// Completes nothing.
  public static let none = ActionCompletion(paths: [], commands: [])

  /// The candidates for the word `text` ends with (`text` is the line up to the cursor), sorted,
  /// and where that word starts in `text`; a candidate ending with `[`, `.` or `=` asks for more.
  public func complete(_ text: String) -> (candidates: [String], wordStart: String.Index) {
    let wordStart = text.lastIndex(of: " ").map(text.index(after:)) ?? text.startIndex
    let word = String(text[wordStart...])
    if wordStart == text.startIndex {
      if word.hasPrefix(":") {
        return (commands.map { ":" + $0 }.filter { $0.hasPrefix(word) }.sorted(), wordStart)
      }
      let candidates = Set(paths.keys.compactMap { Self.fill($0, with: word) }).filter { $0.hasPrefix(word) }
      return (candidates.sorted(), wordStart)
    }
    // NB: after the type, the action's fields; none inside a value (`title="two words`).
    guard !word.contains("="), !word.contains("\""), !word.contains("{") else { return ([], wordStart) }
    let first = String(text[..<(text.firstIndex(of: " ") ?? text.endIndex)])
    guard let fields = paths[Self.pattern(of: first)] else { return ([], wordStart) }
    let typed = Set(text.split(separator: " ").compactMap { $0.split(separator: "=").first.map(String.init) })
    let candidates = fields.filter { !typed.contains($0) || $0 == word }.map { $0 + "=" }.filter { $0.hasPrefix(word) }
    return (candidates.sorted(), wordStart)
  }

  /// What Tab adds to `text`: the longest text every candidate continues it with (a space after
  /// a whole action type or a command), and the candidates to list when that is nothing.
  public func completion(of text: String) -> (insert: String, list: [String]) {
    let (candidates, start) = complete(text)
    let word = text[start...]
    guard let first = candidates.first else { return ("", []) }
    var common = first
    for candidate in candidates.dropFirst() {
      common = String(common.commonPrefix(with: candidate))
    }
    var insert = String(common.dropFirst(word.count))
    if candidates.count == 1, let last = first.last, !"[.=".contains(last) { insert += " " }
    return (insert, insert.isEmpty && candidates.count > 1 ? candidates : [])
  }

  /// `path` (`todos[].toggle`) with its ids taken from `word` (`todos[2].to`) as far as `word`
  /// goes, up to the first id it lacks (`todos[`); `nil` when `word` leaves the path.
  static func fill(_ path: String, with word: String) -> String? {
    var filled = ""
    var rest = Substring(word)
    var pattern = Substring(path)
    while let open = pattern.range(of: "[]") {
      let before = pattern[..<open.lowerBound]
      // NB: a word that ends before the id completes up to the bracket.
      if rest.count <= before.count {
        return before.hasPrefix(rest) ? filled + before + "[" : nil
      }
      guard rest.hasPrefix(before), rest.dropFirst(before.count).hasPrefix("[") else { return nil }
      let afterOpen = rest.dropFirst(before.count + 1)
      guard let close = afterOpen.firstIndex(of: "]") else { return nil }
      filled += before + "[" + afterOpen[..<close] + "]"
      rest = afterOpen[afterOpen.index(after: close)...]
      pattern = pattern[open.upperBound...]
    }
    return filled + pattern
  }

  /// The pattern of a typed path: each `[id]` made `[]`.
  static func pattern(of word: String) -> String {
    var out = ""
    var inside = false
    for character in word {
      if character == "[" { inside = true; out += "[]" } else if character == "]" { inside = false } else if !inside { out.append(character) }
    }
    return out
  }
}
