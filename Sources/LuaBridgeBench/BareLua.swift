import CLua
import CLuaShim

/// The baseline: the same work written directly against the Lua C API, the way a C programmer
/// would (no protection around pushes, `lua_pcall` around the call).
final class BareLua {
  let L: OpaquePointer
  let incrementRef: Int32
  let stateRef: Int32
  let sinkRef: Int32

  init() throws {
    guard let L = luaL_newstate() else { throw BenchmarkError.setup("luaL_newstate") }
    self.L = L
    luaL_openlibs(L)
    func function(_ source: String) throws -> Int32 {
      guard luaL_loadstring(L, source) == LUA_OK, clua_pcall(L, 0, 1, 0) == LUA_OK else {
        throw BenchmarkError.setup(String(cString: clua_tostring(L, -1)))
      }
      return luaL_ref(L, lunar_registryindex())
    }
    incrementRef = try function(BridgeBenchmark.incrementSource)
    sinkRef = try function(BridgeBenchmark.sinkSource)
    lua_createtable(L, 0, 1)
    lua_pushinteger(L, 0)
    lua_setfield(L, -2, "count")
    stateRef = luaL_ref(L, lunar_registryindex())
  }

  deinit { lua_close(L) }

  func increment() {
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(incrementRef))
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(stateRef))
    lua_pushinteger(L, 1)
    if clua_pcall(L, 2, 0, 0) != LUA_OK { clua_pop(L, 1) }
  }

  var count: Int {
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(stateRef))
    _ = lua_getfield(L, -1, "count")
    defer { clua_pop(L, 2) }
    return Int(lua_tointegerx(L, -1, nil))
  }

  func push(_ items: [BridgeBenchmark.Item]) {
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(sinkRef))
    lua_createtable(L, Int32(items.count), 0)
    for (index, item) in items.enumerated() {
      lua_createtable(L, 0, 4)
      lua_pushinteger(L, lua_Integer(item.id))
      lua_setfield(L, -2, "id")
      var name = item.name
      name.withUTF8 { utf8 in
        utf8.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
      }
      lua_setfield(L, -2, "name")
      lua_pushboolean(L, item.done ? 1 : 0)
      lua_setfield(L, -2, "done")
      lua_pushnumber(L, item.score)
      lua_setfield(L, -2, "score")
      lua_rawseti(L, -2, lua_Integer(index + 1))
    }
    if clua_pcall(L, 1, 0, 0) != LUA_OK { clua_pop(L, 1) }
  }
}
