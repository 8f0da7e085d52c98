/// The `lunar` module's Lua source: feature definitions and effect descriptions for scripts, and the
/// host-only machinery (state proxies, the write journal, effect coroutines) for ``LuaFeatureHost``.
enum LunarPrelude {
  static let chunkName = "lunar.lua"

  static let source = #"""
-- The `lunar` module as feature scripts see it: feature definitions and effect descriptions.
-- Host-only machinery (state proxies, journal, effect serialisation) lives in `host` below and is
-- never reachable from a feature's sandbox.
local whereDefined = ...       -- function(fn) -> "file.lua:12", handed in by the host (no `debug` here)

local type, setmetatable, getmetatable, rawget, rawset, select, error, tostring, pairs, next =
  type, setmetatable, getmetatable, rawget, rawset, select, error, tostring, pairs, next
local cyield, crunning, cisyieldable = coroutine.yield, coroutine.running, coroutine.isyieldable
local tpack, tunpack = table.pack, table.unpack

local lunar = {}
local fx = {}
lunar.fx = fx
local host = {}

-- Effects are named by where their function is defined ("counter.lua:12"): reducers often
-- `return fx.run(…)`, a tail call that leaves no frame to ask for a current line.
local function definedAt(fn)
  return whereDefined(fn)
end

local function describe(value)
  local t = type(value)
  if t == "string" then return string.format("%q", value) end
  if t == "table" then return "a table" end
  return t == "nil" and "nil" or (t .. " " .. tostring(value))
end

---------------------------------------------------------------------------------------------------
-- Actions

local function checkAction(action, what, level)
  if type(action) ~= "table" then
    error(what .. " expects an action table like { type = \"increment\" }, got " .. describe(action), level + 1)
  end
  if type(rawget(action, "type")) ~= "string" then
    error(what .. " expects an action with a string `type` field, got type = " .. describe(rawget(action, "type")), level + 1)
  end
end

---------------------------------------------------------------------------------------------------
-- Effects: descriptions only. Swift turns them into the core's effects.

local Effect = {}
Effect.__index = Effect
Effect.__name = "lunar.effect"
Effect.__metatable = "lunar.effect"     -- scripts cannot swap or edit it
local effects = setmetatable({}, { __mode = "k" })

local function effect(t)
  effects[t] = true
  return setmetatable(t, Effect)
end

local function isEffect(value)
  return effects[value] == true
end

local function checkID(id, what, level)
  local t = type(id)
  if t ~= "string" and t ~= "number" and t ~= "boolean" then
    error(what .. " expects an id that is a string, number or boolean, got " .. describe(id), level + 1)
  end
end

local function checkSeconds(seconds, what, level)
  if type(seconds) ~= "number" or seconds ~= seconds or seconds < 0 or seconds == math.huge then
    error(what .. " expects a duration in seconds (a finite number ≥ 0), got " .. describe(seconds), level + 1)
  end
end

--- fx.none: no effect.
fx.none = effect { kind = "none" }

--- fx.send(action): feed `action` back into the store immediately.
function fx.send(action)
  checkAction(action, "fx.send", 2)
  return effect { kind = "send", action = action }
end

--- fx.run(fn [, { catch = fn }]): run `fn(send)` as a coroutine driven by Swift.
function fx.run(fn, options)
  if type(fn) ~= "function" then
    error("fx.run expects a function(send), got " .. describe(fn), 2)
  end
  local catch = nil
  if options ~= nil then
    if type(options) ~= "table" then error("fx.run's options must be a table like { catch = fn }", 2) end
    catch = options.catch
    if catch ~= nil and type(catch) ~= "function" then
      error("fx.run's catch must be a function(error, send), got " .. describe(catch), 2)
    end
  end
  return effect { kind = "run", fn = fn, catch = catch, origin = definedAt(fn) }
end

local function collect(what, ...)
  local effects = {}
  for i = 1, select("#", ...) do
    local e = select(i, ...)
    if e ~= nil then
      if not isEffect(e) then
        error(what .. " expects effects (from lunar.fx), argument " .. i .. " is " .. describe(e), 3)
      end
      if e.kind ~= "none" then effects[#effects + 1] = e end
    end
  end
  return effects
end

--- fx.merge(e1, e2, …): run effects at once.
function fx.merge(...)
  local effects = collect("fx.merge", ...)
  if #effects == 0 then return fx.none end
  if #effects == 1 then return effects[1] end
  return effect { kind = "merge", effects = effects }
end

--- fx.concat(e1, e2, …): run effects one after the other.
function fx.concat(...)
  local effects = collect("fx.concat", ...)
  if #effects == 0 then return fx.none end
  if #effects == 1 then return effects[1] end
  return effect { kind = "concat", effects = effects }
end

--- fx.cancel(id): cancel the effects running under `id` in this feature instance.
function fx.cancel(id)
  checkID(id, "fx.cancel", 2)
  return effect { kind = "cancel", id = id }
end

--- fx.debounce(id, seconds, action): send `action` once `seconds` pass without another debounce of `id`.
function fx.debounce(id, seconds, action)
  checkID(id, "fx.debounce", 2)
  checkSeconds(seconds, "fx.debounce", 2)
  checkAction(action, "fx.debounce", 2)
  return effect { kind = "debounce", id = id, seconds = seconds, action = action }
end

--- fx.throttle(id, seconds, action [, latest]): at most one action per `seconds` for `id`.
function fx.throttle(id, seconds, action, latest)
  checkID(id, "fx.throttle", 2)
  checkSeconds(seconds, "fx.throttle", 2)
  checkAction(action, "fx.throttle", 2)
  return effect { kind = "throttle", id = id, seconds = seconds, action = action, latest = latest and true or false }
end

--- effect:cancellable(id [, { cancelInFlight = true }])
function Effect:cancellable(id, options)
  checkID(id, "cancellable", 2)
  local cancelInFlight = false
  if options ~= nil then
    if type(options) ~= "table" then error("cancellable's options must be a table like { cancelInFlight = true }", 2) end
    cancelInFlight = options.cancelInFlight and true or false
  end
  if self.kind == "none" then
    return cancelInFlight and fx.cancel(id) or fx.none
  end
  return effect { kind = "cancellable", id = id, cancelInFlight = cancelInFlight, effect = self }
end

setmetatable(fx, {
  __index = function(_, name)
    error("lunar.fx has no effect named " .. describe(name) ..
      " (effects: none, send, run, merge, concat, cancel, debounce, throttle)", 2)
  end,
})

---------------------------------------------------------------------------------------------------
-- Features

local Feature = {}
Feature.__index = Feature
Feature.__name = "lunar.feature"
Feature.__metatable = "lunar.feature"
local features = setmetatable({}, { __mode = "k" })

--- lunar.feature { name = …, initial = {…}, reduce = function(state, action, deps) … end }
function lunar.feature(definition)
  if type(definition) ~= "table" then
    error("lunar.feature expects a table { name = …, initial = {…}, reduce = function … }", 2)
  end
  local name = definition.name
  if type(name) ~= "string" or name == "" then
    error("lunar.feature needs a `name` string", 2)
  end
  if type(definition.initial) ~= "table" then
    error("feature " .. name .. " needs an `initial` state table, got " .. describe(definition.initial), 2)
  end
  if type(definition.reduce) ~= "function" then
    error("feature " .. name .. " needs a `reduce = function(state, action, deps)`, got " .. describe(definition.reduce), 2)
  end
  for _, optional in ipairs { "view", "migrate" } do
    if definition[optional] ~= nil and type(definition[optional]) ~= "function" then
      error("feature " .. name .. ": `" .. optional .. "` must be a function, got " .. describe(definition[optional]), 2)
    end
  end
  local feature = {}
  for k, v in pairs(definition) do feature[k] = v end
  feature.origin = definedAt(definition.reduce)
  features[feature] = true
  return setmetatable(feature, Feature)
end

function host.isFeature(value)
  return features[value] == true
end

---------------------------------------------------------------------------------------------------
-- State proxies and the write journal.
--
-- The reducer sees `state` through proxies: reads fall through to the resident table, writes are
-- recorded (table, key, old value) before they happen. On failure the journal is replayed
-- backwards, so the state is exactly as before the action; on success it names what changed, so
-- Swift patches its snapshot instead of reading the whole state.

local REAL, PATH, GEN = {}, {}, {}
local generation = 0
local active = false
local proxies = {}              -- real table -> proxy, for the current reducer call
local journal, journalCount = {}, 0
local proxyMT = {}
proxyMT.__name = "lunar.state"
proxyMT.__metatable = "lunar.state"

local function stale(key)
  error("state used outside its reducer call (reading or writing " .. describe(key) .. "). " ..
    "Effects run later: capture the values you need (`local n = state.count`) before returning " ..
    "fx.run, and never keep `state` itself.", 3)
end

local function proxyOf(real, path)
  local proxy = proxies[real]
  if proxy == nil then
    proxy = setmetatable({ [REAL] = real, [PATH] = path, [GEN] = generation }, proxyMT)
    proxies[real] = proxy
  end
  return proxy
end

local function childPath(path, key)
  local n = #path
  local result = { }
  for i = 1, n do result[i] = path[i] end
  result[n + 1] = key
  return result
end

proxyMT.__index = function(proxy, key)
  if not active or rawget(proxy, GEN) ~= generation then stale(key) end
  local value = rawget(proxy, REAL)[key]
  if type(value) == "table" and getmetatable(value) == nil then
    return proxyOf(value, childPath(rawget(proxy, PATH), key))
  end
  return value
end

proxyMT.__newindex = function(proxy, key, value)
  if not active or rawget(proxy, GEN) ~= generation then stale(key) end
  if key == nil or key ~= key then error("state keys cannot be nil or NaN", 2) end
  if type(value) == "table" and rawget(value, REAL) ~= nil then
    value = rawget(value, REAL)
  end
  local real = rawget(proxy, REAL)
  local n = journalCount
  journal[n + 1] = real
  journal[n + 2] = key
  journal[n + 3] = real[key]
  journal[n + 4] = rawget(proxy, PATH)
  journalCount = n + 4
  real[key] = value
end

proxyMT.__len = function(proxy)
  if not active or rawget(proxy, GEN) ~= generation then stale("#") end
  return #rawget(proxy, REAL)
end

proxyMT.__pairs = function(proxy)
  if not active or rawget(proxy, GEN) ~= generation then stale("pairs") end
  local real = rawget(proxy, REAL)
  local path = rawget(proxy, PATH)
  return function(_, key)
    local k, v = next(real, key)
    if type(v) == "table" and getmetatable(v) == nil then
      v = proxyOf(v, childPath(path, k))
    end
    return k, v
  end, proxy, nil
end

local function endCall()
  active = false
  if next(proxies) ~= nil then proxies = {} end
end

local pendingHandles = {}       -- handles registered by the call in progress

local function clearJournal()
  for i = 1, journalCount do journal[i] = nil end
  journalCount = 0
end

-- Undoes every write of the last call, newest first, and forgets the effects it described.
local function rollback()
  for i = journalCount - 3, 1, -4 do
    journal[i][journal[i + 1]] = journal[i + 2]
  end
  clearJournal()
  endCall()
  for i = #pendingHandles, 1, -1 do
    host.dropHandle(pendingHandles[i])
    pendingHandles[i] = nil
  end
end

-- Keeps the writes of the last call.
local function commit()
  clearJournal()
  for i = #pendingHandles, 1, -1 do pendingHandles[i] = nil end
end

-- The changes of the last successful call, as a list of { path, key, value } with `value` the final
-- value (a plain table when it is one). Duplicates are dropped. The journal stays until `commit`.
local function changes()
  if journalCount == 0 then return nil end
  local changes, seen = {}, {}
  for i = 1, journalCount, 4 do
    local real, key = journal[i], journal[i + 1]
    local keys = seen[real]
    if keys == nil then keys = {}; seen[real] = keys end
    if not keys[key] then
      keys[key] = true
      changes[#changes + 1] = { path = journal[i + 3], key = key, value = real[key] }
    end
  end
  return changes
end

---------------------------------------------------------------------------------------------------
-- Effect serialisation: a description becomes plain data; functions become numbered handles that
-- Swift later turns into coroutines.

local handles, nextHandle = {}, 0

local function register(value)
  nextHandle = nextHandle + 1
  handles[nextHandle] = value
  pendingHandles[#pendingHandles + 1] = nextHandle
  return nextHandle
end

local serialize
serialize = function(e)
  local kind = e.kind
  if kind == "run" then
    return { kind = "run", handle = register({ fn = e.fn, catch = e.catch, origin = e.origin }), origin = e.origin }
  elseif kind == "merge" or kind == "concat" then
    local list = {}
    for i, member in ipairs(e.effects) do list[i] = serialize(member) end
    return { kind = kind, effects = list }
  elseif kind == "cancellable" then
    return { kind = kind, id = e.id, cancelInFlight = e.cancelInFlight, effect = serialize(e.effect) }
  else
    return e   -- none, send, cancel, debounce, throttle: already plain data
  end
end

---------------------------------------------------------------------------------------------------
-- Calling a reducer: host.reduce(reduceFn, realState, action, deps) -> effect, changes.
-- Afterwards the host calls host.commit() once it has read both, or host.rollback() on any failure.

function host.reduce(reduce, state, action, deps)
  generation = generation + 1
  active = true
  local result = reduce(proxyOf(state, {}), action, deps)
  endCall()
  if result == nil then
    return nil, changes()
  end
  if not isEffect(result) then
    error("reduce returned " .. describe(result) .. "; return an effect from lunar.fx (or nothing)", 0)
  end
  if result.kind == "none" then
    return nil, changes()
  end
  return serialize(result), changes()
end

host.rollback = rollback
host.commit = commit

--- The plain value at `path` inside `state` (for the host to re-read a container).
function host.valueAt(state, path)
  local value = state
  for i = 1, #path do
    if type(value) ~= "table" then return nil end
    value = value[path[i]]
  end
  return value
end

--- A read-only view of `t`: what scripts get as `lunar` and `lunar.fx`.
local function readonly(t, name)
  return setmetatable({}, {
    __index = t,
    __newindex = function(_, key)
      error(name .. " is read-only (tried to set " .. describe(key) .. ")", 2)
    end,
    __pairs = function() return next, t, nil end,
    __metatable = name,
  })
end

--- Takes the function behind a `run` handle (once).
function host.takeHandle(handle)
  local entry = handles[handle]
  handles[handle] = nil
  return entry
end

--- Drops handles of effects that were never started (cancelled before running).
function host.dropHandle(handle)
  handles[handle] = nil
end

---------------------------------------------------------------------------------------------------
-- Effects at run time. An effect's function runs in a coroutine; `send` and asynchronous
-- dependency calls yield to Swift with a tag.

local SEND, CALL = "lunar.send", "lunar.call"
local effectThreads = setmetatable({}, { __mode = "k" })
host.SEND, host.CALL = SEND, CALL

local function makeSend(origin)
  return function(action)
    checkAction(action, "send (in the effect started at " .. origin .. ")", 2)
    local thread = crunning()
    if not effectThreads[thread] then
      error("send must be called from the effect's own function (started at " .. origin ..
        "), not from a nested coroutine or after the effect ended", 2)
    end
    cyield(SEND, action)
  end
end

--- The body of an effect's coroutine: runs `fn(send)`, routing errors to `catch` when given.
function host.effectBody(entry)
  local send = makeSend(entry.origin)
  local fn, catch = entry.fn, entry.catch
  return function()
    effectThreads[crunning()] = true
    if catch == nil then
      fn(send)
      return
    end
    local ok, err = pcall(fn, send)
    if not ok then catch(err, send) end
  end
end

--- Wraps an asynchronous dependency function: it yields the call to Swift, which resumes with
--- (true, result) or (false, message).
function host.asyncCall(name)
  return function(...)
    local thread, isMain = crunning()
    if isMain or not effectThreads[thread] then
      error("deps." .. name .. " is asynchronous: call it inside fx.run(function(send) … end), " ..
        "not in the reducer", 2)
    end
    local results = tpack(cyield(CALL, name, ...))
    if results[1] then
      return tunpack(results, 2, results.n)
    end
    error(results[2], 2)
  end
end

lunar.fx = readonly(fx, "lunar.fx")
---------------------------------------------------------------------------------------------------
-- Dependencies: `deps.numberFact.fetch(n)`. Synchronous ones are host functions; asynchronous ones
-- yield to Swift. Lua overrides (tests) replace either kind with a plain Lua function.

local function missingDependency(prefix, known)
  return function(_, key)
    local names = {}
    for name in pairs(known) do names[#names + 1] = name end
    table.sort(names)
    error("deps" .. prefix .. " has no " .. describe(key) .. " (it has: " .. table.concat(names, ", ") .. ")", 2)
  end
end

function host.makeDeps(syncFunctions, asyncNames, overrides)
  local deps = {}
  local function place(name, fn)
    local parts = {}
    for part in string.gmatch(name, "[^.]+") do parts[#parts + 1] = part end
    local t = deps
    for i = 1, #parts - 1 do
      local sub = rawget(t, parts[i])
      if sub == nil then sub = {}; rawset(t, parts[i], sub) end
      t = sub
    end
    rawset(t, parts[#parts], fn)
  end
  for name, fn in pairs(syncFunctions) do place(name, fn) end
  for _, name in ipairs(asyncNames) do place(name, host.asyncCall(name)) end
  if overrides ~= nil then
    for name, fn in pairs(overrides) do place(name, fn) end
  end
  local function guard(t, prefix)
    for key, value in pairs(t) do
      if type(value) == "table" then guard(value, prefix .. "." .. key) end
    end
    setmetatable(t, { __index = missingDependency(prefix, t) })
  end
  guard(deps, "")
  return deps
end

return { lunar = readonly(lunar, "lunar"), host = host }
"""#
}
