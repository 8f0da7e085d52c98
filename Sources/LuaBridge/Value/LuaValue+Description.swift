extension LuaValue: CustomStringConvertible, CustomDebugStringConvertible {
  /// The value written as Lua source on one line (``LuaNotation/line``), keys sorted so output is
  /// stable: `{ count = 3, items = { 1, 2.5, nil, "x" }, ["odd key"] = true }`.
  ///
  /// Floats always show as floats (`3.0`, `1e+20`); the specials read back in Lua: `1/0`, `-1/0`,
  /// `0/0` (NaN) and `-0.0`, and the smallest integer is `math.mininteger`. Strings show as Lua
  /// literals, invalid UTF-8 and control characters as `\xHH` escapes.
  public var description: String { LuaNotation.line.text(self) }

  public var debugDescription: String { "LuaValue(\(description))" }
}
