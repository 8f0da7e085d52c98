/// A Lua value that is plain data: what crosses between Swift and Lua by copy.
///
/// ```swift
/// let state: LuaValue = ["count": 3, "items": [1, 2.5, "three"], "done": false]
/// state["count"]           // .integer(3)
/// state.description        // { count = 3, done = false, items = { 1, 2.5, "three" } }
/// ```
///
/// How each awkward case converts (Swift → Lua → Swift; ``normalized`` computes the result):
///
/// - **Integers and floats stay apart.** Lua 5.4 has both subtypes: `3` reads as `.integer(3)`,
///   `3.0` as `.number(3.0)`, and they are *not* equal here (Lua's `==` says they are). Use
///   ``integerValue`` to accept both. `math.maxinteger` is `.integer(Int64.max)`.
/// - **NaN, infinities, `-0.0`** pass through unchanged. For equality and hashing NaN equals NaN
///   (so values can be compared and stored in sets) and `-0.0 == 0.0` (as in Swift and Lua).
/// - **Strings are bytes** (``LuaString``): NUL and invalid UTF-8 survive every round trip.
/// - **Arrays** are tables whose keys are exactly the integers `1...n`. `.nil` elements are holes:
///   Lua drops them, so trailing `.nil`s disappear, and a table whose positive integer keys are
///   sparse (largest key more than twice the number of keys) reads as `.table` with decimal-string
///   keys (`{[1000] = true}` reads as `["1000": true]`), so a hostile `{[2^40] = 1}` cannot become an
///   array of a trillion nils.
/// - **Empty tables**: an `.array` is pushed with a marker metatable (`__name` `"lunar.array"`),
///   so that it reads back as `.array([])` once emptied in place; any other empty Lua table reads
///   as `.table([:])`. ``LuaDecoder`` accepts either where an array or a keyed value is expected.
/// - **Mixed tables** (`{1, 2, x = 3}`) read as `.table` with integer keys written in decimal
///   (`["1": 1, "2": 2, "x": 3]`); if that makes two keys collide (`[1]` and `["1"]`) it is an error.
/// - **Other keys** (non-integral floats, booleans, tables, functions) are an error naming the path.
/// - **`.nil` table entries** do not exist in Lua: `["a": nil]` reads back as `[:]`.
/// - **Functions, userdata, threads** are not data: reading one is an error naming its path,
///   e.g. `state.items[3].onTap` (indices are Lua's, from 1). Hold them with ``LuaRef`` instead.
/// - **Cycles** are detected (an error naming both ends); a table shared twice without a cycle is
///   copied twice. **Nesting** deeper than ``LuaVM/Limits/dataDepth`` is an error.
/// - **Metatables** are ignored: reads are raw (no `__index`, `__pairs`).
public enum LuaValue: Sendable {
  /// Lua's `nil`.
  case `nil`
  /// `true` or `false`.
  case boolean(Bool)
  /// An integer (Lua's integer subtype: 64-bit, wrapping arithmetic).
  case integer(Int64)
  /// A float (Lua's float subtype).
  case number(Double)
  /// A byte string.
  case string(LuaString)
  /// A sequence, indexed from 1 in Lua; `.nil` elements are holes.
  case array([LuaValue])
  /// A table with string keys.
  case table([LuaString: LuaValue])
}

extension LuaValue {
  /// A string value from Swift text.
  ///
  /// ```swift
  /// let name = LuaValue.text(user.name)   // same as .string(LuaString(user.name))
  /// ```
  public static func text(_ string: some StringProtocol) -> LuaValue {
    .string(LuaString(string))
  }

  /// The name of the case, as used in messages: `nil`, `boolean`, `integer`, `float`, `string`,
  /// `array` or `table`.
  public var typeName: String {
    switch self {
    case .nil: "nil"
    case .boolean: "boolean"
    case .integer: "integer"
    case .number: "float"
    case .string: "string"
    case .array: "array"
    case .table: "table"
    }
  }

  /// What Lua's `type()` says of the value: `"number"` for integers and floats, `"table"` for
  /// arrays and tables. Use it in messages to script authors.
  public var luaType: String {
    switch self {
    case .nil: "nil"
    case .boolean: "boolean"
    case .integer, .number: "number"
    case .string: "string"
    case .array, .table: "table"
    }
  }

  /// Whether this is `.nil`.
  public var isNil: Bool {
    if case .nil = self { return true }
    return false
  }

  /// The boolean, if this is one.
  public var boolValue: Bool? {
    if case .boolean(let b) = self { return b }
    return nil
  }

  /// The integer, also from a float with an exact integer value (`3.0`), as Lua's
  /// `math.tointeger` does; `nil` for anything else.
  public var integerValue: Int64? {
    switch self {
    case .integer(let i): return i
    case .number(let d): return Int64(exactly: d)
    default: return nil
    }
  }

  /// The number as a `Double`, from either subtype (large integers may round).
  public var numberValue: Double? {
    switch self {
    case .integer(let i): return Double(i)
    case .number(let d): return d
    default: return nil
    }
  }

  /// The string as Swift text, or `nil` if this is not a string or not valid UTF-8.
  public var stringValue: String? {
    if case .string(let s) = self { return s.string }
    return nil
  }

  /// The elements, if this is an array.
  public var arrayValue: [LuaValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The entries, if this is a table.
  public var tableValue: [LuaString: LuaValue]? {
    if case .table(let t) = self { return t }
    return nil
  }

  /// The value of a table's field, or `.nil` (for a missing field or a value that is no table),
  /// so lookups chain: `state["user"]["name"]`.
  public subscript(key: LuaString) -> LuaValue {
    get {
      if case .table(let t) = self { return t[key] ?? .nil }
      return .nil
    }
    set {
      guard case .table(var t) = self else { return }
      t[key] = newValue
      self = .table(t)
    }
  }
}

extension LuaValue: Hashable {
  /// Structural equality, with two rules of its own: NaN equals NaN, and an integer never equals a
  /// float (`.integer(3) != .number(3.0)`), so a round trip through Lua is checked exactly.
  public static func == (lhs: LuaValue, rhs: LuaValue) -> Bool {
    switch (lhs, rhs) {
    case (.nil, .nil): return true
    case let (.boolean(a), .boolean(b)): return a == b
    case let (.integer(a), .integer(b)): return a == b
    case let (.number(a), .number(b)): return a == b || (a.isNaN && b.isNaN)
    case let (.string(a), .string(b)): return a == b
    case let (.array(a), .array(b)): return a == b
    case let (.table(a), .table(b)): return a == b
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .nil: hasher.combine(0)
    case .boolean(let b): hasher.combine(1); hasher.combine(b)
    case .integer(let i): hasher.combine(2); hasher.combine(i)
    case .number(let d):
      hasher.combine(3)
      // NB: all NaNs are equal here, so they must hash alike; Double already hashes ±0 alike.
      if d.isNaN { hasher.combine(Double.nan.bitPattern) } else { hasher.combine(d) }
    case .string(let s): hasher.combine(4); hasher.combine(s)
    case .array(let a): hasher.combine(5); hasher.combine(a)
    case .table(let t): hasher.combine(6); hasher.combine(t)
    }
  }
}
