// Running a Lua feature from Swift needs the core (`Store`, `Scope`, `Effect`, and what it
// re-exports) and Lua's values (`LuaValue`, ``LuaEncoder``/``LuaDecoder``): `import LuaFeatures`
// brings both.
@_exported import Composable
@_exported import LuaBridge
