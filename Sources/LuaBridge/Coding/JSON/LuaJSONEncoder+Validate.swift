extension LuaJSONEncoder {
  /// Checks that `value` can be written as JSON, without writing it: the same rules and the same
  /// error as ``encode(_:root:)``.
  ///
  /// ```swift
  /// try LuaJSONEncoder().validate(["type": "tick", "n": .number(.nan)], root: "action")
  /// // throws: action.n: NaN (not a number) is not a JSON number
  /// ```
  ///
  /// A value that can be written costs one walk, with nothing allocated; for one that cannot,
  /// ``encode(_:root:)`` names the first problem in the order the text would be written, so the
  /// error is the same from run to run.
  public func validate(_ value: LuaValue, root: String = "") throws(LuaJSONError) {
    guard !Self.isWritable(value, depth: 0, limit: depthLimit) else { return }
    _ = try encode(value, root: root)
  }

  private static func isWritable(_ value: LuaValue, depth: Int, limit: Int) -> Bool {
    switch value {
    case .nil, .boolean, .integer: return true
    case let .number(number): return number.isFinite
    case let .string(string): return isText(string)
    case let .array(elements):
      guard depth < limit else { return false }
      for element in elements where !isWritable(element, depth: depth + 1, limit: limit) { return false }
      return true
    case let .table(entries):
      guard depth < limit else { return false }
      for (key, element) in entries where !isText(key) || !isWritable(element, depth: depth + 1, limit: limit) {
        return false
      }
      return true
    }
  }

  private static func isText(_ string: LuaString) -> Bool {
    string.bytes.withUnsafeBufferPointer { buffer in
      // NB: ASCII needs no check; most keys and strings are ASCII.
      buffer.allSatisfy { $0 < 0x80 } || UTF8Check.firstInvalidOffset(buffer) == nil
    }
  }
}
