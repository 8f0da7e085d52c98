-- The trusted Lua code that builds sandbox environments. It runs once per VM with the VM's real
-- globals and returns `make_env`; everything a sandbox can reach is decided here.
local G = _G
local real_load, real_setmetatable, real_collectgarbage = load, setmetatable, collectgarbage
local rawget, type, error, select, pairs, tostring = rawget, type, error, select, pairs, tostring
local format, concat = string.format, table.concat

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

-- make_env(find, print, random, randomseed, ...library names) -> env, reset_modules
return function(find, host_print, random, randomseed, ...)
  local env = {}
  for _, name in G.ipairs(base) do env[name] = G[name] end
  env._VERSION = G._VERSION
  env._G = env

  -- Finalizers run at moments no script controls, so they would break determinism.
  env.setmetatable = function(t, mt)
    if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
      error("setmetatable: __gc metamethods are not allowed in the sandbox", 2)
    end
    return real_setmetatable(t, mt)
  end

  env.collectgarbage = function(option)
    if option == "count" then return real_collectgarbage("count") end
    error(format("collectgarbage: only 'count' is allowed in the sandbox (got %s)",
      option == nil and "no option" or "'" .. tostring(option) .. "'"), 2)
  end

  -- Text only: binary chunks can crash a VM. Without an explicit env, the sandbox's own.
  -- luacheck: push ignore 212/mode (the caller's mode is replaced by "t")
  env.load = function(chunk, chunkname, mode, ...)
    if select("#", ...) > 0 then return real_load(chunk, chunkname, "t", (...)) end
    return real_load(chunk, chunkname, "t", env)
  end
  -- luacheck: pop

  env.print = function(...)
    local parts = {}
    for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
    host_print(concat(parts, "\t"))
  end

  for i = 1, select("#", ...) do
    local name = select(i, ...)
    env[name] = copy(libraries[name])
  end
  if env.math then
    env.math.random = random
    env.math.randomseed = randomseed
  end

  local loaded, loading = {}, {}
  env.require = function(name)
    if type(name) ~= "string" then
      error(format("bad argument #1 to 'require' (string expected, got %s)", type(name)), 2)
    end
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
    local guard <close> = real_setmetatable({}, { __close = function() loading[key] = nil end })
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
