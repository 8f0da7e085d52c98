import LuaBridge

extension LuaFeatureInstance {
  /// What a reducer call returned (see `host.reduce` in the prelude), sorted into the cases the
  /// host settles without building the general change list.
  enum Outcome {
    /// No write, no effect: the prelude returned nothing.
    case unchanged
    /// One field set to a scalar, no effect: `nil, 1, path, key, false, value`, where the path is
    /// `0` for the root or the array of keys from the root.
    case field(path: [LuaValue], key: LuaString, value: LuaValue)
    /// Anything else: the effect, then the changes (see `plan`).
    case general([LuaValue])

    /// Reads the results in place; the last field's path and key are reused when the same field
    /// is set again (no allocation for them).
    init(_ results: LuaResults, last: (path: [LuaValue], key: LuaString?)) throws(LuaError) {
      if results.count == 0 {
        self = .unchanged
        return
      }
      if results.count == 6, results.isNil(1), results.integer(2) == 1, results.boolean(5) == false,
        let key = results.string(4, reusing: last.key), let value = results.scalar(6)
      {
        if results.integer(3) == 0 {
          self = .field(path: [], key: key, value: value)
          return
        }
        if let path = results.keys(3, reusing: last.path) {
          self = .field(path: path, key: key, value: value)
          return
        }
      }
      self = .general(try results.values())
    }

    /// The results as the general path reads them.
    var results: [LuaValue] {
      switch self {
      case .unchanged: return []
      case let .field(path, key, value):
        return [.nil, .integer(1), path.isEmpty ? .integer(0) : .array(path), .string(key), .boolean(false), value]
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
