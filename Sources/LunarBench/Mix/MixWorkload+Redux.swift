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

  /// Runs the same workload Redux-style in plain Lua 5.4: `times` dispatches from a Lua loop, each
  /// action made as it is dispatched, then a check of the state they made.
  public func runRedux(times: Int, store: ReduxStore = .plain) throws {
    let redux = try ReduxMixStore(self, store: store)
    try redux.dispatch(times)
    try redux.check()
  }
}

/// A Redux-style store of the action mix (`bench/redux_mix.lua`) in a plain Lua 5.4 state of its
/// own: no sandbox, no hook, no memory ceiling.
///
/// ```swift
/// let redux = try ReduxMixStore(.toggleRow)
/// try redux.dispatch(10_000)   // the workload's actions 1 to 10,000, dispatched from a Lua loop
/// try redux.check()
/// ```
public final class ReduxMixStore {
  private let L: OpaquePointer
  /// The workload whose actions it receives.
  public let workload: MixWorkload
  /// The actions dispatched so far.
  public private(set) var dispatched = 0

  // NB: the stack holds the module at 1 and the store at 2 between calls.
  private static let module: Int32 = 1
  private static let store: Int32 = 2

  /// A store of `workload`'s state: the plain one, or Rodux's.
  public init(_ workload: MixWorkload, store: MixWorkload.ReduxStore = .plain) throws {
    guard let L = luaL_newstate() else { throw MixWorkloadError("cannot create a Lua state") }
    self.L = L
    self.workload = workload
    luaL_openlibs(L)
    let file = EmbeddedLua.benchReduxMix
    guard luaL_loadbufferx(L, file.source, file.source.utf8.count, "=" + file.name, "t") == LUA_OK else {
      throw MixWorkloadError(String(cString: clua_tostring(L, -1)))
    }
    try call(arguments: 0, results: 1)
    _ = lua_getfield(L, Self.module, "makeStore")
    lua_pushinteger(L, lua_Integer(workload.rows))
    switch store {
    case .plain:
      lua_pushnil(L)
    case .rodux(let folder):
      let file = folder.appendingPathComponent("Store.lua")
      guard let source = try? String(contentsOf: file, encoding: .utf8) else {
        throw MixWorkloadError("cannot read Rodux's Store.lua at \(file.path) (LUNAR_RODUX names Rodux's src folder)")
      }
      _ = lua_getfield(L, Self.module, "rodux")
      lua_pushstring(L, source)
      try call(arguments: 1, results: 1)
    }
    lua_pushstring(L, workload.kind)
    try call(arguments: 3, results: 1)
  }

  deinit {
    lua_close(L)
  }

  /// Dispatches the workload's next `count` actions.
  public func dispatch(_ count: Int) throws {
    _ = lua_getfield(L, Self.module, "dispatch")
    lua_pushvalue(L, Self.store)
    lua_pushstring(L, workload.kind)
    lua_pushinteger(L, lua_Integer(workload.rows))
    lua_pushinteger(L, lua_Integer(dispatched + 1))
    lua_pushinteger(L, lua_Integer(dispatched + count))
    try call(arguments: 5, results: 0)
    dispatched += count
  }

  /// Throws unless the store's state is what the actions dispatched so far make.
  public func check() throws {
    _ = lua_getfield(L, Self.module, "check")
    lua_pushstring(L, workload.kind)
    lua_pushinteger(L, lua_Integer(workload.rows))
    lua_pushinteger(L, lua_Integer(dispatched))
    _ = lua_getfield(L, Self.store, "getState")
    lua_pushvalue(L, Self.store)
    try call(arguments: 1, results: 1)
    try call(arguments: 4, results: 0)
  }

  private func call(arguments: Int32, results: Int32) throws {
    guard clua_pcall(L, arguments, results, 0) == LUA_OK else {
      let message = clua_tostring(L, -1).map { String(cString: $0) } ?? "a Lua error"
      clua_pop(L, 1)
      throw MixWorkloadError(message)
    }
  }
}
