import CLua
import CLuaShim

extension LuaArguments {
  /// Where the Lua code calling this function stands: `level` 1 is the Lua function that called it,
  /// 2 that function's caller, and so on. `nil` past the top of the stack or for non-Lua frames.
  ///
  /// ```swift
  /// let here = try vm.function(named: "here") { args in
  ///   .value(args.callerLocation(level: 1).map { "\($0.file):\($0.line)" } ?? "?")
  /// }
  /// ```
  public func callerLocation(level: Int) -> (file: String, line: Int)? {
    var info = lua_Debug()
    // NB: lua_getstack and "Sl" only read the call stack: they neither allocate nor raise.
    guard level >= 0, lua_getstack(state, Int32(level), &info) != 0,
      lua_getinfo(state, "Sl", &info) != 0, info.currentline > 0
    else { return nil }
    let file = withUnsafeBytes(of: info.short_src) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    return (file, Int(info.currentline))
  }
}
