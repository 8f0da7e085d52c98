import CLua

/// The version of the Lua library Lunar is linked against.
///
/// ```swift
/// print(LuaVersion.number) // 504
/// ```
public enum LuaVersion {
  /// The version number as Lua reports it (`504` for 5.4).
  public static var number: Int { Int(LUA_VERSION_NUM) }
}
