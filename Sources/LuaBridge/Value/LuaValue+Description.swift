extension LuaValue: CustomStringConvertible, CustomDebugStringConvertible {
  /// The value written as Lua source, with keys sorted so output is stable:
  /// `{count = 3, items = {1, 2.5, nil, "x"}, ["odd key"] = true}`.
  ///
  /// Floats always show as floats (`3.0`, `1e+20`); the specials read back in Lua: `1/0`, `-1/0`,
  /// `0/0` (NaN) and `-0.0`, and the smallest integer is `math.mininteger`. Strings show as Lua
  /// literals, invalid UTF-8 and control characters as `\xHH` escapes.
  public var description: String {
    var out = ""
    write(to: &out)
    return out
  }

  public var debugDescription: String { "LuaValue(\(description))" }

  private func write(to out: inout String) {
    switch self {
    case .nil: out += "nil"
    case .boolean(let b): out += b ? "true" : "false"
    // NB: `-9223372036854775808` reads as a float in Lua (the numeral overflows before the minus).
    case .integer(let i): out += i == .min ? "math.mininteger" : String(i)
    case .number(let d): out += Self.format(d)
    case .string(let s): out += LuaLiteral.quote(s)
    case .array(let elements):
      out += "{"
      for (i, element) in elements.enumerated() {
        if i > 0 { out += ", " }
        element.write(to: &out)
      }
      out += "}"
    case .table(let entries):
      out += "{"
      for (i, key) in entries.keys.sorted().enumerated() {
        if i > 0 { out += ", " }
        if LuaLiteral.isIdentifier(key) { out += key.lossyString } else { out += "[" + LuaLiteral.quote(key) + "]" }
        out += " = "
        entries[key]!.write(to: &out)
      }
      out += "}"
    }
  }

  static func format(_ d: Double) -> String {
    if d.isNaN { return "0/0" }
    if d.isInfinite { return d < 0 ? "-1/0" : "1/0" }
    // NB: Swift prints the shortest text that reads back as the same Double, and always marks
    // floats ("3.0", "1e-05"), which is exactly what tells Lua 3.0 apart from 3.
    return d.description
  }
}
