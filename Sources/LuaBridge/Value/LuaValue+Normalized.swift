extension LuaValue {
  /// The value as it reads back after a trip through Lua, under the rules of ``LuaValue``.
  ///
  /// ```swift
  /// LuaValue.array([1, nil, 3, nil]).normalized      // [1, nil, 3]: trailing holes vanish
  /// LuaValue.array([nil, nil, nil, 4]).normalized    // ["4": 4]: too sparse for an array
  /// LuaValue.table(["a": nil, "b": 1]).normalized    // ["b": 1]: nil entries do not exist
  /// ```
  ///
  /// For every value `v` within the depth limit, `try vm.roundTrip(v) == v.normalized`, and
  /// `normalized` is idempotent. Scalars are returned unchanged.
  public var normalized: LuaValue {
    switch self {
    case .nil, .boolean, .integer, .number, .string:
      return self
    case .table(let entries):
      var kept: [LuaString: LuaValue] = [:]
      for (key, value) in entries where !value.isNil {
        kept[key] = value.normalized
      }
      return .table(kept)
    case .array(let elements):
      var normalized = elements.map(\.normalized)
      while let last = normalized.last, last.isNil { normalized.removeLast() }
      let filled = normalized.reduce(0) { $0 + ($1.isNil ? 0 : 1) }
      if LuaValue.isDenseArray(largestKey: normalized.count, keyCount: filled) {
        return .array(normalized)
      }
      var entries: [LuaString: LuaValue] = [:]
      for (offset, element) in normalized.enumerated() where !element.isNil {
        entries[LuaString(String(offset + 1))] = element
      }
      return .table(entries)
    }
  }

  /// The array rule shared by reading and ``normalized``: positive integer keys read as an array
  /// when the largest is at most twice the number of keys.
  static func isDenseArray(largestKey: Int, keyCount: Int) -> Bool {
    keyCount == 0 || largestKey <= 2 * keyCount
  }
}
