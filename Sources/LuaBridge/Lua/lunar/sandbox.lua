-- The trusted Lua code that builds sandbox environments. It runs once per VM with the VM's real
-- globals and the sandbox kit (C functions: the sandbox's setmetatable, collectgarbage, load and
-- print, which read as stock Lua's in errors), and returns `make_env`; everything a sandbox can
-- reach is decided here.
local kit = ...
local G = _G
local real_setmetatable = setmetatable
local type, error, select, pairs = type, error, select, pairs
local format = string.format

-- The string metatable is shared by every string of the VM: hide it, so no sandbox can change
-- how strings behave for the others. Methods keep working ("x"):upper().
getmetatable("").__metatable = false

local libraries = {
  string = string, table = table, math = math, utf8 = utf8, coroutine = coroutine,
}

local base = {
  "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal",
  "rawget", "rawlen", "rawset", "select", "tonumber", "tostring", "type", "xpcall",
}

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- What common pure-Lua libraries read when they load, and nothing that reaches files, processes
-- or the environment: they load unmodified.
local function add_shims(env, host_print, now)
  env.package = { config = "/\n;\n?\n!\n-\n", path = "./?.lua;./?/init.lua", cpath = "" }
  env.io = {}
  env.io.write = kit.bind_write(host_print, env.io)
  local start = now()
  env.os = {
    getenv = function() return nil end,
    time = function(t)
      if t ~= nil then error("os.time: only os.time() is offered in the sandbox (no dates)", 2) end
      return G.math.floor(now())
    end,
    clock = function() return now() - start end,
  }
end

-- make_env(find, print, random, randomseed, now or nil, ...library names) -> env, reset_modules
-- `now` (seconds since 1970, from the host's clock) is given when the host offers the shims.
return function(find, host_print, random, randomseed, now, ...)
  local env = {}
  for _, name in G.ipairs(base) do env[name] = G[name] end
  env._VERSION = G._VERSION
  env._G = env

  -- Finalizers run at moments no script controls, so setmetatable refuses __gc; collectgarbage
  -- only counts. load is text only: binary chunks can crash a VM.
  env.setmetatable = kit.setmetatable
  env.collectgarbage = kit.collectgarbage
  env.load = kit.bind_load(env)
  env.print = kit.bind_print(host_print)

  local standard = {} -- require "string" returns the sandbox's string library, as stock Lua's does
  for i = 1, select("#", ...) do
    local name = select(i, ...)
    env[name] = copy(libraries[name])
    standard[name] = env[name]
  end
  if env.math then
    env.math.random = random
    env.math.randomseed = randomseed
  end

  if now then add_shims(env, host_print, now) end

  local loaded, loading = {}, {}
  local guard_metatable = { __close = kit.unmark }
  env.require = function(name)
    if type(name) ~= "string" then
      error(format("bad argument #1 to 'require' (string expected, got %s)", type(name)), 2)
    end
    local library = standard[name]
    if library then return library end
    local key = (name:gsub("/", "."))  -- 'views/row' and 'views.row' are one module
    local value = loaded[key]
    if value ~= nil then return value end
    if loading[key] then
      error(format("module '%s' requires itself while loading (circular require)", name), 2)
    end
    local chunk, origin = find(name, env)
    if not chunk then error(origin, 2) end
    loading[key] = true
    -- luacheck: ignore 211/guard (a to-be-closed variable: its use is being closed)
    local guard <close> = real_setmetatable({ loading, key }, guard_metatable)
    value = chunk(name, origin)
    if value == nil then value = true end
    loaded[key] = value
    return value, origin
  end

  local function reset_modules()
    loaded, loading = {}, {}
  end
  return env, reset_modules
end
