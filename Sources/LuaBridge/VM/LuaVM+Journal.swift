import CLua
import CLuaShim

extension LuaVM {
  /// The C half of LuaFeatures' reducer calls: a table of functions (the call's state, the state
  /// proxies, the reducer call, the budget switches) whose contract is written in
  /// `CLuaShim/journal.c`, `proxies.c` and `reduce.c` and in the prelude that uses them.
  ///
  /// ```swift
  /// let core = try vm.journalLibrary()
  /// let host = try vm.call(hostChunk, base, LuaValue.array([]), core, returning: LuaTable.self)
  /// ```
  ///
  /// Not for scripts: the functions trust their arguments' shapes (the prelude builds them once).
  package func journalLibrary() throws(LuaError) -> LuaTable {
    let status = lunar_push_journal_library(state)
    guard status == LUA_OK else { throw takeError(status: status, from: state) }
    return LuaTable(LuaRef(vm: self, id: try popReference(), type: .table))
  }
}

/// What a reducer call did, as ``LuaVM/reduce(_:on:with:lastIsCurrent:)`` reads it.
package enum LuaReduction {
  /// No write and no effect.
  case unchanged
  /// One field set to a scalar (not nil), no effect; `path` is empty for a field of the root.
  case field(path: [LuaValue], key: LuaString, value: LuaValue)
  /// The same, for the field of the last `.field` or `.lastField` outcome: nothing else to copy.
  case lastField(LuaValue)
  /// Anything else: the prelude's results (the effect, then the changes), for the general path.
  case results([LuaValue])
}

extension LuaVM {
  /// Runs one action through a bound reducer (journal.c's `bind`): the hot path of a Lua feature.
  ///
  /// ```swift
  /// switch try vm.reduce(bound, on: resident, with: action, lastIsCurrent: applied) {
  /// case .unchanged: …
  /// case let .lastField(value): …          // the field written last time, again
  /// case let .field(path, key, value): …   // patch the snapshot
  /// case let .results(results): …          // the general path
  /// }
  /// ```
  ///
  /// The call, its budget and its errors are those of ``call(_:on:with:)``; the commonest outcomes
  /// are read in C, which also remembers the field this bound reducer wrote last. When it is
  /// written again and `lastIsCurrent` says the caller applied that last write, the outcome is
  /// ``LuaReduction/lastField(_:)``: nothing is copied but the value.
  ///
  /// - Parameters:
  ///   - bound: The ``LuaRef/registryID`` of the bound reducer, and `state` that of the state
  ///     table: references of this VM, which the caller keeps alive. (Ids rather than references,
  ///     so that the hot path retains nothing.)
  ///   - lastIsCurrent: Whether the caller applied this bound reducer's last `.field` or
  ///     `.lastField` outcome (and keeps its path and key).
  package func reduce(
    _ bound: Int32, on state: Int32, with action: LuaValue, lastIsCurrent: Bool
  ) throws(LuaError) -> LuaReduction {
    var writer = makeWriter()
    defer { recycle(&writer) }
    do { try action.write(to: &writer) } catch { throw Self.argumentError(error, position: 2) }
    let L = self.state
    let top = lua_gettop(L)
    var reduced = lunar_reduced()
    let status = lunar_reduce(
      host, L, bound, state,
      writer.base.assumingMemoryBound(to: UInt8.self), writer.count, &reduced)
    guard status == LUA_OK else { throw callError(status: status, on: L, hasObject: reduced.count > 0) }
    defer { lua_settop(L, top) }
    let results = LuaResults(vm: self, state: L, base: top, count: Int(reduced.count))
    switch Int(reduced.kind) {
    case Int(LUNAR_REDUCED_NOTHING):
      return .unchanged
    case Int(LUNAR_REDUCED_ROOT_FIELD), Int(LUNAR_REDUCED_FIELD):
      if reduced.same_field != 0, lastIsCurrent { return .lastField(Self.scalar(reduced)) }
      let key = LuaString(bytes: UnsafeRawBufferPointer(start: reduced.key, count: reduced.key_length))
      if Int(reduced.kind) == Int(LUNAR_REDUCED_ROOT_FIELD) {
        return .field(path: [], key: key, value: Self.scalar(reduced))
      }
      if let path = results.keys(1) { return .field(path: path, key: key, value: Self.scalar(reduced)) }
    default:
      break
    }
    return .results(try results.values())
  }

  private static func scalar(_ reduced: lunar_reduced) -> LuaValue {
    switch reduced.value_type {
    case LUA_TBOOLEAN: return .boolean(reduced.boolean != 0)
    case LUA_TNUMBER: return reduced.is_integer != 0 ? .integer(reduced.integer) : .number(reduced.number)
    default: return .string(LuaString(bytes: UnsafeRawBufferPointer(start: reduced.string, count: reduced.string_length)))
    }
  }
}
