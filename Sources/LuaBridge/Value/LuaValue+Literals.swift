// Literals make values easy to write in tests and in host code:
//
//     let action: LuaValue = ["type": "increment", "by": 2]

extension LuaValue: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .nil }
}

extension LuaValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension LuaValue: ExpressibleByIntegerLiteral {
  /// An integer literal is always `.integer` (write `3.0` for a float).
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension LuaValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension LuaValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(LuaString(value)) }
}

extension LuaValue: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: LuaValue...) { self = .array(elements) }
}

extension LuaValue: ExpressibleByDictionaryLiteral {
  /// A table; a later duplicate key wins.
  public init(dictionaryLiteral elements: (LuaString, LuaValue)...) {
    self = .table(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
