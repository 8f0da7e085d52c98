import CLua
import CLuaShim
import CLuaTransaction
import LuaBridge

/// The reducer transaction of one VM, from Swift: begins a transaction per action, reads what it
/// changed, and closes it (docs/transaction.md). The C half is `CLuaTransaction`, whose header
/// defines the journal's layout and the change report read here.
///
/// ```swift
/// var report = ReducerCall.Report()
/// let call = try transaction.reduce(boundID, on: stateID, with: action, into: &report)   // open
/// … patch the snapshot from report.changes; a throw here rolls the action back …
/// call.commit()
/// ```
///
/// Used on the main actor only, like the VM it belongs to.
final class StateTransaction {
  let vm: LuaVM
  /// The C half's functions, for the prelude (`core`, required as `lunar._core`).
  let library: LuaTable
  private let context: OpaquePointer
  /// Interned keys and paths by id, for the report's `epoch`.
  // NB: unchecked: read on every action from inside the VM's call, where Swift cannot see that
  //     nothing else touches them and checked each access at run time (160 instructions an
  //     action). Only `read` uses them, on the main actor, never reentrantly.
  @exclusivity(unchecked) private var epoch: Int64 = -1
  @exclusivity(unchecked) private var keys: [LuaString?] = []
  @exclusivity(unchecked) private var paths: [[LuaValue]?] = []

  init(vm: LuaVM) throws(LuaError) {
    self.vm = vm
    var context: OpaquePointer?
    library = try vm.extensionTable { L in lunar_txn_push_library(L, &context) }
    self.context = context!
  }

  /// Runs one action through the bound reducer `bound` on the state table `state` (registry ids
  /// of this VM, which the caller keeps alive), fills `report` with what it did, and returns its
  /// open transaction. Without `readingTables`, a change that put a table is reported without its
  /// value (see ``ReducerCall/Report/unread``): a state that is a view needs none.
  ///
  /// - Throws: The reducer's error; its writes are already rolled back.
  // NB: the report is the caller's variable, filled in place: returned (through the VM's generic
  //     call, or inside the call), it was copied and destroyed whole several times an action.
  func reduce(
    _ bound: Int32, on state: Int32, with action: LuaValue, readingTables: Bool = true,
    into report: inout ReducerCall.Report
  ) throws(LuaError) -> ReducerCall {
    var outcome = lunar_txn_outcome()
    let context = self.context
    do {
      try vm.callExtension(passing: action, { host, L, program, length, count in
        lunar_txn_reduce(host, L, context, bound, state, program, length, &outcome, &count)
      }, reading: { results throws(LuaError) in try self.read(outcome, results, readingTables: readingTables, into: &report) })
      return ReducerCall(transaction: self)
    } catch {
      rollback()
      throw error
    }
  }

  /// Runs `function(stateTable)` on `table` as a transaction (a hot reload's `migrate`) and
  /// returns the state it leaves; on failure every write is undone.
  func run(_ function: LuaFunction, on table: LuaTable) throws(LuaError) -> LuaValue {
    var closed = false
    defer { if !closed { rollback() } }
    _ = try vm.call(try library.get("reduce", as: LuaFunction.self), function, table, LuaValue.nil, LuaValue.nil)
    let value = try table.value()
    commit()
    closed = true
    return value
  }

  /// Keeps the open transaction's writes.
  func commit() {
    lunar_txn_commit(vm.extensionThread, context)
  }

  /// Undoes the open transaction's writes (nothing when none is open).
  func rollback() {
    let context = self.context
    // NB: outside the budget and the memory ceiling (C): it only gives back what the call took.
    _ = try? vm.callExtension { host, L in lunar_txn_rollback(host, L, context) }
  }

  private func read(
    _ outcome: lunar_txn_outcome, _ results: LuaResults, readingTables: Bool, into report: inout ReducerCall.Report
  ) throws(LuaError) {
    let effects = Int(outcome.effects)
    if effects >= 2, results.isNil(1), let message = results.string(2) {
      report.malformed = message.string ?? "malformed effect"
    } else if effects >= 1 {
      report.effect = try results.value(1)
    }
    let count = Int(outcome.changes)
    guard count > 0 else { return }
    if outcome.epoch != epoch {
      epoch = outcome.epoch
      keys.removeAll(keepingCapacity: true)
      paths.removeAll(keepingCapacity: true)
    }
    report.structural = outcome.structural != 0
    report.changes.reserveCapacity(count)
    for index in 0..<count {
      let change = outcome.change[index]
      let path: [LuaValue]
      if change.path == 0 {
        path = []
      } else if change.path_slot > 0, let keys = results.keys(Int(change.path_slot)) {
        Self.store(keys, at: Int(change.path), in: &paths)
        path = keys
      } else if let known = Self.entry(Int(change.path), in: paths) {
        path = known
      } else {
        // NB: a path interned by a call whose report never reached here (it failed after): re-read.
        report.rereadAll = true
        return
      }
      let key: LuaValue
      switch change.key_type {
      case LUA_TSTRING: key = .string(internedKey(change))
      case LUA_TNUMBER: key = .integer(change.key_integer)
      default:
        report.rereadAll = true
        return
      }
      let value: LuaValue
      switch change.value_type {
      case LUA_TNIL: value = .nil
      case LUA_TBOOLEAN: value = .boolean(change.boolean != 0)
      case LUA_TNUMBER: value = change.is_integer != 0 ? .integer(change.integer) : .number(change.number)
      case LUA_TSTRING:
        value = .string(LuaString(bytes: UnsafeRawBufferPointer(start: change.string, count: change.string_length)))
      default:
        if readingTables {
          value = try results.value(Int(change.value_slot))
        } else {
          value = .nil
          report.unread.append(report.changes.count)
        }
      }
      report.changes.append(StateChange(path: path, key: key, value: value))
    }
  }

  private func internedKey(_ change: lunar_txn_change) -> LuaString {
    let id = Int(change.key)
    if let key = Self.entry(id, in: keys) { return key }
    let key = LuaString(bytes: UnsafeRawBufferPointer(start: change.key_string, count: change.key_length))
    Self.store(key, at: id, in: &keys)
    return key
  }

  private static func entry<T>(_ id: Int, in cache: [T?]) -> T? {
    id < cache.count ? cache[id] : nil
  }

  private static func store<T>(_ value: T, at id: Int, in cache: inout [T?]) {
    if id >= cache.count { cache.append(contentsOf: repeatElement(nil, count: id - cache.count + 1)) }
    cache[id] = value
  }
}

/// An action's open transaction: its writes journaled until ``commit()`` (what it did is in the
/// ``Report`` its call filled). Dropping it without committing rolls the writes back, so every
/// early exit — a `throw` while patching the snapshot, a shared value that cannot be saved —
/// undoes the action by construction, not by a rule each caller must remember.
struct ReducerCall: ~Copyable {
  /// What a call did, as read off the stack.
  struct Report {
    /// The effect's description (`.nil` for none).
    var effect: LuaValue = .nil
    /// The message of a reducer that returned something other than an effect.
    var malformed: String?
    /// One per key written (the first write of each), with the value it holds now.
    var changes: [StateChange] = []
    /// Whether a change put or removed a table (or there were too many to check): the planner
    /// must mind changes inside tables other changes replaced.
    var structural = false
    /// Whether the snapshot must be read again whole.
    var rereadAll = false
    /// The changes whose value is a table that was not read (their `value` is `.nil`).
    var unread: [Int] = []
  }

  private let transaction: StateTransaction
  private var open = true

  init(transaction: StateTransaction) {
    self.transaction = transaction
  }

  /// Keeps the action's writes.
  consuming func commit() {
    transaction.commit()
    open = false
  }

  deinit {
    if open { transaction.rollback() }
  }
}
