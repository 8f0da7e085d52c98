import CLua
import CLuaShim
import Foundation

/// The baseline for Lunar's feature benchmark: a Lua reducer called through the bare C API, with its
/// state table held in the registry and a fresh action table per call — what a hand-written host
/// would do, with no journal, no snapshot and no store.
///
/// ```swift
/// let bare = try BareReducerBaseline(source: script, items: 10)
/// let nanoseconds = bare.measure(iterations: 1_000_000)
/// ```
public final class BareReducerBaseline {
  private let L: OpaquePointer
  private let reduceRef: Int32
  private let stateRef: Int32

  /// Loads `source`, which must return a function `reduce(state, action)`, and builds a state
  /// `{ count = 0, items = { … } }` with `items` entries.
  public init(source: String, items: Int) throws {
    (L, reduceRef) = try Self.open(source)
    Self.pushState(L, items: items)
    stateRef = luaL_ref(L, lunar_registryindex())
  }

  /// A new Lua state with the standard libraries and the function `source` returns, referenced in
  /// the registry.
  static func open(_ source: String) throws -> (OpaquePointer, reduceRef: Int32) {
    guard let L = luaL_newstate() else { throw BaselineError("cannot create a Lua state") }
    luaL_openlibs(L)
    guard luaL_loadstring(L, source) == LUA_OK, clua_pcall(L, 0, 1, 0) == LUA_OK else {
      let message = clua_tostring(L, -1).map { String(cString: $0) } ?? "?"
      lua_close(L)
      throw BaselineError(message)
    }
    return (L, luaL_ref(L, lunar_registryindex()))
  }

  /// Pushes the benchmark's state, `{ count = 0, items = { … } }` with `items` rows.
  static func pushState(_ L: OpaquePointer, items: Int) {
    lua_createtable(L, 0, 2)
    lua_pushinteger(L, 0)
    lua_setfield(L, -2, "count")
    lua_createtable(L, Int32(items), 0)
    for index in 0..<items {
      lua_createtable(L, 0, 2)
      lua_pushstring(L, "item \(index)")
      lua_setfield(L, -2, "title")
      lua_pushboolean(L, 0)
      lua_setfield(L, -2, "done")
      lua_rawseti(L, -2, lua_Integer(index + 1))
    }
    lua_setfield(L, -2, "items")
  }

  deinit {
    lua_close(L)
  }

  /// Sends `{ type = "increment" }` `iterations` times; returns the best nanoseconds per call of
  /// `repetitions` runs.
  public func measure(iterations: Int, repetitions: Int = 5) -> Double {
    var best = Double.infinity
    for _ in 0..<max(1, repetitions) {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<iterations {
        lua_rawgeti(L, lunar_registryindex(), lua_Integer(reduceRef))
        lua_rawgeti(L, lunar_registryindex(), lua_Integer(stateRef))
        lua_createtable(L, 0, 1)
        lua_pushstring(L, "increment")
        lua_setfield(L, -2, "type")
        if clua_pcall(L, 2, 1, 0) != LUA_OK { break }
        clua_pop(L, 1)
      }
      let elapsed = DispatchTime.now().uptimeNanoseconds - start
      best = min(best, Double(elapsed) / Double(iterations))
    }
    return best
  }
}

struct BaselineError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
