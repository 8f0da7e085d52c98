/// How Lunar writes a Lua value for a person: as a Lua table constructor, the way the value's
/// author would type it.
///
/// ```swift
/// let state: LuaValue = ["count": 0, "todos": [["id": 1, "title": "milk"]]]
/// LuaNotation.line.text(state)    // { count = 0, todos = { { id = 1, title = "milk" } } }
/// LuaNotation.block.text(state)   // the same, over several lines once it is longer than a line
/// ```
///
/// - Arrays list their elements in order; keyed tables list `type` first (an action's), then the
///   other keys sorted. A key that is not a Lua name is written `["odd key"]`.
/// - Strings are Lua literals (`"a\"b\n"`, invalid UTF-8 as `\xHH`); floats always show as floats
///   (`3.0`), the specials as `1/0`, `-1/0`, `0/0`; an empty table is `{}`.
/// - ``block`` writes a table on one line when that line is at most ``width`` characters, and
///   otherwise one entry per line, indented by two spaces per level, each followed by a comma.
/// - A table deeper than ``depth`` shows as `{…}`; a text longer than ``length`` characters is
///   cut, its last character `…`.
///
/// Everything Lunar shows a Lua author uses it: `lunar run` (actions, state, diffs), `lunar test`
/// failures, error messages (``LuaValue/description`` is ``line``). Its differences are
/// ``diff(_:_:markers:)``.
public struct LuaNotation: Sendable {
  /// How deep tables are written (the value itself is level 0); deeper ones show as `{…}`. `nil`:
  /// no limit.
  public var depth: Int?
  /// The longest one-line form a table keeps; a longer table takes a line per entry. `nil`:
  /// everything on one line.
  public var width: Int?
  /// How many characters the text may take; a longer one is cut, ending with `…`. `nil`: no limit.
  public var length: Int?

  /// Everything on one line, whole.
  public static let line = LuaNotation(depth: nil, width: nil, length: nil)
  /// Whole, a long table a line per entry.
  public static let block = LuaNotation(depth: nil, width: 96, length: nil)

  public init(depth: Int? = nil, width: Int? = nil, length: Int? = nil) {
    self.depth = depth
    self.width = width
    self.length = length
  }

  /// `value` in this notation, within the limits; its lines after the first start with `indent`
  /// (where the value goes in a larger text).
  public func text(_ value: LuaValue, indent: String = "") -> String {
    var out = ""
    write(value, level: 0, indent: indent, to: &out)
    return cut(out)
  }

  /// `text`, cut to ``length`` characters (the last one `…`).
  public func cut(_ text: String) -> String {
    guard let length, text.count > length else { return text }
    return String(text.prefix(max(length - 1, 0))) + "…"
  }

  /// `key` as a table constructor's field name: `count`, or `["odd key"]`.
  public static func field(_ key: LuaString) -> String {
    LuaLiteral.isIdentifier(key) ? key.lossyString : "[" + LuaLiteral.quote(key) + "]"
  }

  /// A table's keys in the order they are written: `type` first, then the others sorted.
  public static func orderedKeys(_ fields: [LuaString: LuaValue]) -> [LuaString] {
    let type: LuaString = "type"
    let rest = fields.keys.filter { $0 != type }.sorted()
    return fields[type] == nil ? rest : [type] + rest
  }

  /// A scalar's text: `nil`, `true`, `3`, `3.0`, `"milk"`; `nil` for a table.
  static func scalar(_ value: LuaValue) -> String? {
    switch value {
    case .nil: "nil"
    case .boolean(let b): b ? "true" : "false"
    // NB: `-9223372036854775808` reads as a float in Lua (the numeral overflows before the minus).
    case .integer(let i): i == .min ? "math.mininteger" : String(i)
    case .number(let d): format(d)
    case .string(let s): LuaLiteral.quote(s)
    case .array, .table: nil
    }
  }

  static func format(_ d: Double) -> String {
    if d.isNaN { return "0/0" }
    if d.isInfinite { return d < 0 ? "-1/0" : "1/0" }
    // NB: Swift prints the shortest text that reads back as the same Double, and always marks
    // floats ("3.0", "1e-05"), which is exactly what tells Lua 3.0 apart from 3.
    return d.description
  }

  /// The entries of a table, in writing order: (field name and ` = `, or nothing for an array
  /// element; the value). `nil` for a scalar.
  static func entries(_ value: LuaValue) -> [(lead: String, value: LuaValue)]? {
    switch value {
    case .array(let elements): elements.map { ("", $0) }
    case .table(let fields): orderedKeys(fields).map { (field($0) + " = ", fields[$0]!) }
    default: nil
    }
  }

  /// Whether a table at `level` is written `{…}`.
  func isElided(_ entries: [(lead: String, value: LuaValue)], level: Int) -> Bool {
    guard let depth else { return false }
    return level >= depth && !entries.isEmpty
  }

  /// Writes `value`, at nesting `level`, its lines after the first starting with `indent`.
  func write(_ value: LuaValue, level: Int, indent: String, to out: inout String) {
    // NB: a text already past the limit is cut anyway: writing the rest of a large table costs
    //     its size for nothing.
    if let length, out.utf8.count > 4 * length { return }
    guard let entries = Self.entries(value) else { return out += Self.scalar(value)! }
    if entries.isEmpty { return out += "{}" }
    if isElided(entries, level: level) { return out += "{…}" }
    if let width {
      var flat = ""
      if writeFlat(entries, level: level, budget: width, to: &flat) { return out += flat }
      let inner = indent + "  "
      out += "{\n"
      for entry in entries {
        out += inner + entry.lead
        write(entry.value, level: level + 1, indent: inner, to: &out)
        out += ",\n"
      }
      out += indent + "}"
    } else {
      _ = writeFlat(entries, level: level, budget: nil, to: &out)
    }
  }

  /// Writes a table on one line; `false` (and a partial text) as soon as it passes `budget`
  /// characters.
  private func writeFlat(_ entries: [(lead: String, value: LuaValue)], level: Int, budget: Int?, to out: inout String) -> Bool {
    let start = out.utf8.count
    func fits() -> Bool {
      if let length, out.utf8.count > 4 * length { return false }
      guard let budget else { return true }
      return out.utf8.count - start <= budget
    }
    out += "{ "
    for (i, entry) in entries.enumerated() {
      if i > 0 { out += ", " }
      out += entry.lead
      if let inner = Self.entries(entry.value) {
        if inner.isEmpty {
          out += "{}"
        } else if isElided(inner, level: level + 1) {
          out += "{…}"
        } else if !writeFlat(inner, level: level + 1, budget: budget.map { $0 - (out.utf8.count - start) }, to: &out) {
          return false
        }
      } else {
        out += Self.scalar(entry.value)!
      }
      guard fits() else { return budget == nil }
    }
    out += " }"
    return fits() || budget == nil
  }
}
