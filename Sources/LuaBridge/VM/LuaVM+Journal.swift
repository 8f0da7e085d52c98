import CLua
import CLuaShim

extension LuaVM {
  /// The C half of LuaFeatures' reducer calls: a table with `rootMethods` and `reducer`, whose
  /// contract is written in `CLuaShim/journal.c` and in the prelude that uses them.
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
