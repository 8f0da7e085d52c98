/// Splits a `type key=value …` line into its words, the way Lua would see where a value ends.
///
/// Words are separated by spaces or tabs, except inside a quoted string (`"…"` or `'…'`, with
/// backslash escapes) and inside a table (`{ … }`, braces balanced, where strings, long strings
/// `[[…]]` and comments are skipped as Lua skips them). Each word is returned as written:
/// quotes and escapes are read later, by ``ActionParser``.
struct ActionWords {
  private let characters: [Character]
  private var index = 0

  private init(_ text: String) {
    characters = Array(text)
  }

  /// The words of `text`.
  static func split(_ text: String) throws(ActionParseError) -> [String] {
    var words = ActionWords(text)
    return try words.all()
  }

  private var current: Character? { index < characters.count ? characters[index] : nil }

  private mutating func all() throws(ActionParseError) -> [String] {
    var words: [String] = []
    var word = ""
    while let character = current {
      switch character {
      case " ", "\t":
        if !word.isEmpty { words.append(word) }
        word = ""
        index += 1
      case "\"", "'":
        word += try quoted()
      case "{":
        word += try table()
      default:
        word.append(character)
        index += 1
      }
    }
    if !word.isEmpty { words.append(word) }
    return words
  }

  /// A short string from its opening quote to its closing one, escapes kept as written.
  private mutating func quoted() throws(ActionParseError) -> String {
    let quote = characters[index]
    var text = String(quote)
    index += 1
    while let character = current {
      text.append(character)
      index += 1
      if character == "\\", let escaped = current {
        text.append(escaped)
        index += 1
      } else if character == quote {
        return text
      }
    }
    throw ActionParseError("unterminated string")
  }

  /// A table from its `{` to the `}` that closes it.
  private mutating func table() throws(ActionParseError) -> String {
    var text = ""
    var depth = 0
    while let character = current {
      switch character {
      case "\"", "'":
        text += try quoted()
        continue
      case "[" where longBracketLevel() != nil:
        text += try longBracket()
        continue
      case "-" where index + 1 < characters.count && characters[index + 1] == "-":
        text += try comment()
        continue
      case "{":
        depth += 1
      case "}":
        depth -= 1
      default:
        break
      }
      text.append(character)
      index += 1
      if depth == 0 { return text }
    }
    throw ActionParseError("unterminated table: a { without its }")
  }

  /// The level of a long bracket opening here (`[[` is 0, `[==[` is 2), or `nil`.
  private func longBracketLevel() -> Int? {
    var position = index + 1
    var level = 0
    while position < characters.count, characters[position] == "=" {
      level += 1
      position += 1
    }
    return position < characters.count && characters[position] == "[" ? level : nil
  }

  /// A long string or long comment body, `[==[ … ]==]`, as written.
  private mutating func longBracket() throws(ActionParseError) -> String {
    let level = longBracketLevel() ?? 0
    let closing = "]" + String(repeating: "=", count: level) + "]"
    let start = index
    index += level + 2
    while index < characters.count {
      if characters[index] == "]", String(characters[index..<min(index + closing.count, characters.count)]) == closing {
        index += closing.count
        return String(characters[start..<index])
      }
      index += 1
    }
    throw ActionParseError("unterminated long string: \(closing) expected")
  }

  /// A comment inside a table: `--[[ … ]]`, or `-- …` to the end of the line.
  private mutating func comment() throws(ActionParseError) -> String {
    index += 2
    if current == "[", longBracketLevel() != nil { return "--" + (try longBracket()) }
    // NB: a line comment runs to the end of the line, so the table it is in never closes.
    throw ActionParseError("unterminated table: a -- comment runs to the end of the line, past its }")
  }
}
