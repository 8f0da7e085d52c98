import CLua
import Foundation

extension MixWorkload {
  /// Where the Redux-style side of the mix runs: the plain store of `bench/redux_mix.lua`, or
  /// Rodux's own `Store` (its `Store.lua` read from a folder at run time).
  public enum ReduxStore: Sendable, Equatable {
    case plain
    /// Rodux's `src` folder (holding `Store.lua`).
    case rodux(URL)

    /// Rodux's `src` folder from the environment variable `LUNAR_RODUX`, when it is set.
    public static var roduxFromEnvironment: ReduxStore? {
      guard let path = ProcessInfo.processInfo.environment["LUNAR_RODUX"], !path.isEmpty else { return nil }
      return .rodux(URL(fileURLWithPath: path, isDirectory: true))
    }
  }

  /// Runs the same workload Redux-style in plain Lua 5.4 (no sandbox, no hook, no memory
  /// ceiling): `times` dispatches from a Lua loop, each action made as it is dispatched.
  public func runRedux(times: Int, store: ReduxStore = .plain) throws {
    guard let L = luaL_newstate() else { throw MixWorkloadError("cannot create a Lua state") }
    defer { lua_close(L) }
    luaL_openlibs(L)
    try Self.call(L, EmbeddedLua.benchReduxMix, results: 1)
    _ = lua_getfield(L, -1, "run")
    lua_pushstring(L, kind)
    lua_pushinteger(L, lua_Integer(rows))
    lua_pushinteger(L, lua_Integer(times))
    switch store {
    case .plain:
      lua_pushnil(L)
    case .rodux(let folder):
      let file = folder.appendingPathComponent("Store.lua")
      guard let source = try? String(contentsOf: file, encoding: .utf8) else {
        throw MixWorkloadError("cannot read Rodux's Store.lua at \(file.path) (LUNAR_RODUX names Rodux's src folder)")
      }
      _ = lua_getfield(L, -5, "rodux")
      lua_pushstring(L, source)
      try Self.protectedCall(L, arguments: 1, results: 1)
    }
    try Self.protectedCall(L, arguments: 4, results: 1)
    lua_settop(L, 0)
  }

  private static func call(_ L: OpaquePointer, _ file: EmbeddedLuaFile, results: Int32) throws {
    guard luaL_loadbufferx(L, file.source, file.source.utf8.count, "=" + file.name, "t") == LUA_OK else {
      throw MixWorkloadError(String(cString: clua_tostring(L, -1)))
    }
    try protectedCall(L, arguments: 0, results: results)
  }

  private static func protectedCall(_ L: OpaquePointer, arguments: Int32, results: Int32) throws {
    guard clua_pcall(L, arguments, results, 0) == LUA_OK else {
      throw MixWorkloadError(clua_tostring(L, -1).map { String(cString: $0) } ?? "a Lua error")
    }
  }
}
