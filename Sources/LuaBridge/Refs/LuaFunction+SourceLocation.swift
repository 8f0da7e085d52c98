import CLua
import CLuaShim

extension LuaFunction {
  /// Where the function is defined: its chunk name and first line (`counter.lua`, 12), or `nil` for
  /// a function written in C or Swift.
  ///
  /// ```swift
  /// reduce.sourceLocation   // (file: "counter.lua", line: 7)
  /// ```
  public var sourceLocation: (file: String, line: Int)? {
    let L = vm.state
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(reference.id))
    var info = lua_Debug()
    // NB: ">S" pops the function and only fills in source fields: it neither allocates nor raises.
    guard lua_getinfo(L, ">S", &info) != 0, info.linedefined > 0 else { return nil }
    let file = withUnsafeBytes(of: info.short_src) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    return (file, Int(info.linedefined))
  }
}
