-- luacheck configuration for Lunar's Lua: the host's own files and the examples.
-- `scripts/test` runs `luacheck .` from the top level (scripts/lint-lua).

std = "lua54"
-- Nothing assigns globals: features run in a sandbox of their own, the host's files `require` what
-- they need and return what they make. (luacheck's defaults refuse globals already; said
-- here so that nobody loosens it by accident.)
allow_defined = false
allow_defined_top = false
include_files = { "Sources/**/Lua/**/*.lua", "examples/**/*.lua" }
exclude_files = { ".build/**" }

-- Features and their tests run in the sandbox (docs/lua-api.md, "The sandbox"): Lua 5.4's base
-- functions and `string`, `table`, `math`, `utf8`, but no `io`, `os`, `debug`, `package`,
-- `coroutine`, `dofile`, `loadfile` or `warn`. Their modules come from `require` ("lunar",
-- "lunar.test", files of the feature's folder); tests have no globals of their own.
files["examples"] = {
  not_globals = { "io", "os", "debug", "package", "coroutine", "dofile", "loadfile", "warn" },
}

-- The host's own Lua (Sources/*/Lua/lunar/, loaded with the VM's real globals) may use all of
-- Lua 5.4: the settings above.

-- Definitions for editors (lua-language-server `---@meta` files): their tables and functions are
-- declared, never used or implemented, and an annotation's description must stay on its line.
files["Sources/LuaFeatures/Lua/types"] = { unused = false, max_comment_line_length = false }
