// A plugin host runs plugins' features in stores of its own: `import LunarPlugins` brings
// LuaFeatures (and through it the core and Lua's values).
@_exported import LuaFeatures
