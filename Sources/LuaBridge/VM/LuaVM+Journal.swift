import CLua
import CLuaShim
import Foundation

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

/// What a reducer call did, as ``LuaVM/reduce(_:on:with:reusing:)`` reads it.
package enum LuaReduction {
  /// No write and no effect.
  case unchanged
  /// One field set to a scalar (not nil), no effect; `path` is empty for a field of the root.
  case field(path: [LuaValue], key: LuaString, value: LuaValue)
  /// The same, for the field given as `reusing` (the same path and key): nothing else to copy.
  case lastField(LuaValue)
  /// Anything else: the prelude's results (the effect, then the changes), for the general path.
  case results([LuaValue])
}

extension LuaVM {
  /// Runs one action through a bound reducer (journal.c's `bind`): the hot path of a Lua feature.
  ///
  /// ```swift
  /// switch try vm.reduce(bound, on: resident, with: action, reusing: last) {
  /// case .unchanged: …
  /// case let .field(path, key, value): …   // patch the snapshot
  /// case let .results(results): …          // the general path
  /// }
  /// ```
  ///
  /// The call, its budget and its errors are those of ``call(_:on:with:)``; the commonest outcomes
  /// are read in C. `reusing` is the last field's path and key, and whether that path came from
  /// this bound reducer's last nested write (then an element's path, which composition reuses, is
  /// recognized without being read): when the same field is set again,
  /// the outcome is ``LuaReduction/lastField(_:)``, so that such an action copies nothing but the
  /// value.
  ///
  /// - Parameters:
  ///   - bound: The ``LuaRef/registryID`` of the bound reducer, and `state` that of the state
  ///     table: references of this VM, which the caller keeps alive. (Ids rather than references,
  ///     so that the hot path retains nothing.)
  package func reduce(
    _ bound: Int32, on state: Int32, with action: LuaValue,
    reusing last: (path: [LuaValue], key: LuaString?, pathIsLast: Bool)
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
    case Int(LUNAR_REDUCED_ROOT_FIELD):
      if last.path.isEmpty, let key = last.key, Self.matches(reduced, key) { return .lastField(Self.scalar(reduced)) }
      return .field(path: [], key: LuaString(bytes: Self.keyBytes(reduced)), value: Self.scalar(reduced))
    case Int(LUNAR_REDUCED_FIELD):
      if reduced.same_path != 0, last.pathIsLast, let key = last.key, Self.matches(reduced, key) {
        return .lastField(Self.scalar(reduced))
      }
      if let path = results.keys(1, reusing: last.path) {
        if let key = last.key, Self.matches(reduced, key), path == last.path { return .lastField(Self.scalar(reduced)) }
        return .field(path: path, key: LuaString(bytes: Self.keyBytes(reduced)), value: Self.scalar(reduced))
      }
    default:
      break
    }
    return .results(try results.values())
  }

  private static func keyBytes(_ reduced: lunar_reduced) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: reduced.key, count: reduced.key_length)
  }

  /// Whether the key written is `candidate`.
  private static func matches(_ reduced: lunar_reduced, _ candidate: LuaString) -> Bool {
    let bytes = keyBytes(reduced)
    return candidate.bytes.count == bytes.count
      && (bytes.isEmpty || candidate.bytes.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
  }

  private static func scalar(_ reduced: lunar_reduced) -> LuaValue {
    switch reduced.value_type {
    case LUA_TBOOLEAN: return .boolean(reduced.boolean != 0)
    case LUA_TNUMBER: return reduced.is_integer != 0 ? .integer(reduced.integer) : .number(reduced.number)
    default: return .string(LuaString(bytes: UnsafeRawBufferPointer(start: reduced.string, count: reduced.string_length)))
    }
  }
}
