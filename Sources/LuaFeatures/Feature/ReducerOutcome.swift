import LuaBridge

extension LuaFeatureInstance {
  /// What a reducer call returned (see `host.reduce` in the prelude), sorted into the cases the
  /// host settles without building the general change list.
  enum Outcome {
    /// No write, no effect: the prelude returned nothing.
    case unchanged
    /// One top-level field set to a scalar, no effect: `nil, 1, 0, key, false, value`.
    case rootField(LuaString, LuaValue)
    /// Anything else: the effect, then the changes (see `plan`).
    case general([LuaValue])

    /// Reads the results in place; `lastKey` is reused when the same field is set again.
    init(_ results: LuaResults, lastKey: LuaString?) throws(LuaError) {
      if results.count == 0 {
        self = .unchanged
        return
      }
      if results.count == 6, results.isNil(1), results.integer(2) == 1, results.integer(3) == 0,
        results.boolean(5) == false, let key = results.string(4, reusing: lastKey), !key.looksLikeIndex,
        let value = results.scalar(6)
      {
        self = .rootField(key, value)
        return
      }
      self = .general(try results.values())
    }

    /// The results as the general path reads them.
    var results: [LuaValue] {
      switch self {
      case .unchanged: return []
      case let .rootField(key, value): return [.nil, .integer(1), .integer(0), .string(key), .boolean(false), value]
      case let .general(results): return results
      }
    }
  }
}

extension LuaString {
  /// Whether the key starts with a digit: such keys can stand for a mixed table's integer keys,
  /// which only the general patch planner handles.
  var looksLikeIndex: Bool {
    bytes.first.map { (48...57).contains($0) } ?? false
  }
}
