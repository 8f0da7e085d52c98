import LuaBridge

/// Lua source text for values and paths, laid out for a person to read: short values on one line,
/// long tables one field per line, keys sorted.
///
/// ```swift
/// LuaSource.literal(["type": "add", "tags": ["a"]])       // { type = "add", tags = { "a" } }
/// LuaSource.path(["todos", 3, "title"], root: "state")      // state.todos[3].title
/// ```
enum LuaSource {
  /// Values whose one-line form is longer than this are written over several lines.
  static let lineWidth = 96

  /// `value` as a Lua expression; lines after the first are indented by `indent` then by level.
  static func literal(_ value: LuaValue, indent: String = "") -> String {
    let flat = oneLine(value)
    guard flat.count > lineWidth else { return flat }
    let inner = indent + "  "
    switch value {
    case let .array(elements) where !elements.isEmpty:
      let lines = elements.map { inner + literal($0, indent: inner) + "," }
      return "{\n" + lines.joined(separator: "\n") + "\n" + indent + "}"
    case let .table(fields) where !fields.isEmpty:
      let lines = orderedKeys(fields).map { key in
        inner + field(key) + " = " + literal(fields[key]!, indent: inner) + ","
      }
      return "{\n" + lines.joined(separator: "\n") + "\n" + indent + "}"
    default:
      return flat
    }
  }

  /// `value` on one line: `{ type = "add", title = "milk" }`.
  static func oneLine(_ value: LuaValue) -> String {
    switch value {
    case let .array(elements) where !elements.isEmpty:
      return "{ " + elements.map(oneLine).joined(separator: ", ") + " }"
    case let .table(fields) where !fields.isEmpty:
      return "{ " + orderedKeys(fields).map { field($0) + " = " + oneLine(fields[$0]!) }.joined(separator: ", ") + " }"
    default:
      return value.description
    }
  }

  /// A table's keys in the order a person writes them: `type` first (an action's), then sorted.
  static func orderedKeys(_ fields: [LuaString: LuaValue]) -> [LuaString] {
    let type: LuaString = "type"
    let rest = fields.keys.filter { $0 != type }.sorted()
    return fields[type] == nil ? rest : [type] + rest
  }

  /// `key` as a table constructor's field name: `count`, or `["odd key"]`.
  static func field(_ key: LuaString) -> String {
    isIdentifier(key) ? key.lossyString : "[" + LuaValue.string(key).description + "]"
  }

  /// The expression reaching `path` from `root`: `state.todos[3]["odd key"]`.
  static func path(_ path: [LuaValue], root: String) -> String {
    var text = root
    for key in path {
      switch key {
      case let .string(name): text += isIdentifier(name) ? "." + name.lossyString : "[" + key.description + "]"
      default: text += "[" + key.description + "]"
      }
    }
    return text
  }

  /// A Lua string literal.
  static func string(_ text: String) -> String {
    LuaValue.text(text).description
  }

  /// Whether `key` can be written as a bare name (`state.count`): a Lua identifier, not a keyword.
  static func isIdentifier(_ key: LuaString) -> Bool {
    guard let first = key.bytes.first, !(0x30...0x39).contains(first) else { return false }
    let allowed = key.bytes.allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }
    return allowed && !keywords.contains(key.lossyString)
  }

  private static let keywords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
    "not", "or", "repeat", "return", "then", "true", "until", "while",
  ]
}
