import CLua
import CLuaBench
import CLuaShim
import Foundation

/// The least a host with Lunar's guarantees pays per action on the Lua side: the bare call of
/// ``BareReducerBaseline`` plus the three mechanisms Lunar's semantics require, each in its
/// cheapest form, and nothing else (no store, no action from Swift, no snapshot, no error handler):
///
/// - a fresh, empty root proxy per call, so that a `state` kept from an earlier call is refused;
/// - C metamethods that read through it and journal each write (table, key, old value, path), so
///   that a failed call can be undone and the host learns what changed;
/// - the instruction budget's count hook.
///
/// `lunar-bench lua` reports it next to Lunar, so that Lunar's ratio to the bare call can be read
/// against what its design cannot avoid: the part above this floor is Lunar's own cost (the store,
/// the action from Swift, the snapshot, error reporting). Only a cheaper form of one of the three
/// goes below it: for instance a light userdata as the root proxy, which allocates nothing but makes
/// `type(state)` say "userdata".
///
/// ```swift
/// let floor = try JournalFloorBaseline(source: BenchScripts.counterReducer, items: 10)
/// let nanoseconds = floor.measure(iterations: 1_000_000)
/// ```
public final class JournalFloorBaseline {
  private let L: OpaquePointer
  private let reduceRef: Int32
  private let metatableRef: Int32
  private let call: UnsafeMutablePointer<lunar_floor_call>

  /// Loads `source`, which must return a function `reduce(state, action)`, and builds the same
  /// state as ``BareReducerBaseline``: `{ count = 0, items = { … } }` with `items` rows.
  public init(source: String, items: Int) throws {
    (L, reduceRef) = try BareReducerBaseline.open(source)
    call = .allocate(capacity: 1)
    call.initialize(to: lunar_floor_call(root: nil, count: 0))
    BareReducerBaseline.pushState(L, items: items)
    lunar_floor_push_metatable(L, -1, call)
    metatableRef = luaL_ref(L, lunar_registryindex())
    clua_pop(L, 1)
    lua_sethook(L, lunar_floor_hook, LUA_MASKCOUNT, 1_000)
  }

  deinit {
    lua_close(L)
    call.deallocate()
  }

  /// Sends `{ type = "increment" }` `iterations` times, each through a new root proxy; returns the
  /// best nanoseconds per call of `repetitions` runs.
  public func measure(iterations: Int, repetitions: Int = 5) -> Double {
    var best = Double.infinity
    for _ in 0..<max(1, repetitions) {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<iterations {
        lua_rawgeti(L, lunar_registryindex(), lua_Integer(reduceRef))
        lua_createtable(L, 0, 0)
        call.pointee.root = lua_topointer(L, -1)
        call.pointee.count = 0
        lua_rawgeti(L, lunar_registryindex(), lua_Integer(metatableRef))
        lua_setmetatable(L, -2)
        lua_createtable(L, 0, 1)
        lua_pushstring(L, "increment")
        lua_setfield(L, -2, "type")
        let status = clua_pcall(L, 2, 1, 0)
        call.pointee.root = nil
        if status != LUA_OK { break }
        clua_pop(L, 1)
      }
      let elapsed = DispatchTime.now().uptimeNanoseconds - start
      best = min(best, Double(elapsed) / Double(iterations))
    }
    return best
  }

  /// The state's `count` as the reducer left it (to check that the calls ran).
  public var count: Int {
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(metatableRef))
    lua_getfield(L, -1, "__index")
    lua_getupvalue(L, -1, 1)
    lua_getfield(L, -1, "count")
    defer { clua_pop(L, 4) }
    return Int(lua_tointegerx(L, -1, nil))
  }
}
