import LuaBridge

extension LuaVM {
  /// Compiles one of the host's own Lua files (`Lua/lunar/…`, embedded at build time by the
  /// EmbedLua plugin) under its real name, so that an error in it names the real file and line.
  func load(_ file: EmbeddedLuaFile) throws(LuaError) -> LuaFunction {
    try load(file.source, chunkName: file.name)
  }
}
