-- Host-only machinery for features, part two (after lunar/_host.lua): effect serialisation,
-- reducer calls, effect coroutines and the `deps` table.
local base = require "lunar._base"
local host = require "lunar._host"
local isEffect, checkAction, describe = base.isEffect, base.checkAction, base.describe
local descriptionOf = base.descriptionOf
local internals = host.internals
local core, handles, pending = internals.core, internals.handles, internals.pending

local type, setmetatable, rawget, rawset, error, pairs, ipairs =
  type, setmetatable, rawget, rawset, error, pairs, ipairs
local cyield, crunning = coroutine.yield, coroutine.running
local tpack, tunpack = table.pack, table.unpack

---------------------------------------------------------------------------------------------------
-- Effect serialisation: a description becomes plain data; functions become numbered handles that
-- Swift later turns into coroutines.

local nextHandle = 0

-- NB: a handle is pending until the transaction that described it closes: a rollback drops it.
local function register(value)
  nextHandle = nextHandle + 1
  handles[nextHandle] = value
  pending[#pending + 1] = nextHandle
  return nextHandle
end

local serialize
serialize = function(handle)
  local e = descriptionOf(handle)
  local kind = e.kind
  if kind == "run" then
    return { kind = "run", handle = register({ fn = e.fn, catch = e.catch, origin = e.origin }), origin = e.origin }
  elseif kind == "merge" or kind == "concat" then
    local list = {}
    for i, member in ipairs(e.effects) do list[i] = serialize(member) end
    return { kind = kind, effects = list }
  elseif kind == "cancellable" then
    return { kind = kind, id = e.id, cancelInFlight = e.cancelInFlight, effect = serialize(e.effect) }
  elseif kind == "child" then
    return { kind = kind, key = e.key, id = e.id, identity = e.identity, mode = e.mode, effect = serialize(e.effect) }
  else
    return e   -- none, send, cancel, debounce, throttle: already plain data
  end
end

---------------------------------------------------------------------------------------------------
-- Calling a reducer: the call itself is C (CLuaTransaction/transaction.c): it begins the
-- transaction, makes the root proxy, calls the reducer and ends the call; the host reads what
-- changed from the journal and closes the transaction. Here: what a returned effect becomes.

-- finish(result) -> the effect as data; or nil, message for something that is not an effect.
-- Also called with nil when the call built effects it did not return (lunar/_loose.lua).
local loose = internals.loose
local function finish(result)
  if loose() > 0 then host.reportLoose(result) end
  if result == nil then return nil end
  if not isEffect(result) then
    -- NB: returned, not raised, so the host reports a malformed effect rather than a failing reducer.
    return nil, "reduce returned " .. describe(result) .. "; return an effect from lunar.fx (or nothing)"
  end
  if descriptionOf(result).kind == "none" then return nil end
  return serialize(result)
end

core.setup { finish = finish, stale = internals.stale, marker = internals.arrayMarker, handles = handles,
  pending = pending }

--- `reduce(fn, stateTable, action, deps)`: one call of `fn` on the state as a transaction the host
--- then closes (commit or rollback); what the host's `migrate` runs through.
host.reduce = core.reduce

--- A reducer call with its feature's `reduce` and `deps` bound: `bound(state, action)`, what
--- the host calls for every action.
function host.bind(reduce, deps)
  -- NB: a composed feature (one with a `body`) keeps per-instance data (stack ids): it is made
  --     current before each call. Plain features skip this.
  local instance, routing = host.enterInstance(reduce)
  if instance ~= nil then
    -- NB: the routing is trusted host code: the bound call runs it outside the instruction
    --     budget, and passes it the instance to make current.
    return core.bind(routing, deps, instance)
  end
  return core.bind(reduce, deps)
end

--- Set by lunar/_compose/init.lua: `enterInstance(reduce)` -> a composed reducer's per-instance data
--- and its routing, or nil for a plain one.
host.enterInstance = function() return nil end

--- The plain value at `path` inside `state` (for the host to re-read a container).
function host.valueAt(state, path)
  local value = state
  for i = 1, #path do
    if type(value) ~= "table" then return nil end
    value = value[path[i]]
  end
  return value
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

--- The body of an effect's coroutine: runs `fn(send)`, routing errors to `catch` when given.
-- Its `send` yields from this effect's coroutine only (`own`, set when it starts): a `send` kept
-- past the effect's end, or handed to another effect or a nested coroutine, raises instead of
-- delivering as if that other code were the effect.
function host.effectBody(entry)
  local fn, catch, origin = entry.fn, entry.catch, entry.origin
  local own
  local function send(action)
    checkAction(action, "send (in the effect started at " .. origin .. ")", 2)
    if crunning() ~= own then
      error("send must be called from the effect's own function (started at " .. origin ..
        "), not from a nested coroutine, another effect or after the effect ended", 2)
    end
    cyield(SEND, action)
  end
  return function()
    own = crunning()
    effectThreads[own] = true
    if catch == nil then
      fn(send)
      return
    end
    local ok, err = pcall(fn, send)
    if not ok then catch(err, send) end
  end
end

-- The error of an asynchronous dependency called outside an effect; through a client's method,
-- it names the method the reducer called.
local function checkInEffect(name, level)
  local thread, isMain = crunning()
  if isMain or not effectThreads[thread] then
    local client = host.callingClient and host.callingClient()
    local what = client and ("deps." .. client .. " is asynchronous (it calls deps." .. name .. ")")
      or ("deps." .. name .. " is asynchronous")
    error(what .. ": call it inside fx.run(function(send) … end), not in the reducer", level + 1)
  end
end

--- Wraps an asynchronous dependency function: it yields the call to Swift, which resumes with
--- (true, result) or (false, message).
-- The iterator over stream `id`, which a Swift dependency returned: each call yields to Swift for
-- the next value (nil at the end).
local function streamIterator(name, id)
  return function()
    checkInEffect(name, 2)
    local ok, value = cyield(CALL, "@next", id)
    if ok then return value end
    error("deps." .. name .. ": " .. value, 2)
  end
end

function host.asyncCall(name)
  return function(...)
    checkInEffect(name, 2)
    local results = tpack(cyield(CALL, name, ...))
    if results[1] then
      local first = results[2]
      if type(first) == "table" and rawget(first, "@stream") ~= nil then
        return streamIterator(name, first["@stream"])
      end
      return tunpack(results, 2, results.n)
    end
    error(results[2], 2)
  end
end

--- Waits, inside an effect, until the stream `id` a test feeds (`test.stream()`) is fed or
--- finished; the effect's cancellation ends the wait by closing its coroutine.
function host.waitForStream(id, what)
  local thread, isMain = crunning()
  if isMain or not effectThreads[thread] then
    error(what .. " is read by an effect: loop over it inside fx.run(function(send) … end)", 3)
  end
  cyield(CALL, "@stream", id)
end

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

--- The `deps` of a feature instance: the host's functions, the feature's Lua clients (see
--- lunar/_clients.lua), and mocks by dotted name (`overrides`). A mock of an asynchronous dependency
--- is still asynchronous: called in the reducer, it fails as the real one would. With `testing` (a
--- Lua test's store), mocks must name one of the feature's dependencies, and client methods that
--- are not mocked fail unless their client is in `real` (a list of names); without it (Swift's
--- overrides), a mock may add a name.
function host.makeDeps(syncFunctions, asyncNames, overrides, clients, testing, real)
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
  local known, async = {}, {}
  for name, fn in pairs(syncFunctions) do
    place(name, fn)
    known[#known + 1] = name
  end
  for _, name in ipairs(asyncNames) do
    place(name, host.asyncCall(name))
    known[#known + 1], async[name] = name, true
  end
  local realSet = {}
  for _, name in ipairs(real or {}) do realSet[name] = true end
  for _, entry in ipairs(host.clientEntries(clients, deps, overrides, testing, realSet)) do
    if rawget(deps, entry.name) ~= nil then
      error("the client " .. entry.name .. " has the name of one of the host's dependencies (deps." ..
        entry.name .. "): rename the client", 0)
    end
    rawset(deps, entry.name, entry.methods)
  end
  for _, name in ipairs(host.clientNames(clients)) do known[#known + 1] = name end
  for _, name in ipairs(real or {}) do
    if rawget(deps, name) == nil or async[name] ~= nil or type(rawget(deps, name)) ~= "table" then
      error("test.store: clients = { \"" .. tostring(name) .. "\" } names no client of this feature", 0)
    end
  end
  if overrides ~= nil then
    local isKnown = {}
    for _, name in ipairs(known) do isKnown[name] = true end
    for name, fn in pairs(overrides) do
      if testing and not isKnown[name] then
        table.sort(known)
        error("deps." .. name .. " is not a dependency of this feature; it has: " .. table.concat(known, ", "), 0)
      end
      if async[name] then
        local mock = fn
        fn = function(...)
          checkInEffect(name, 2)
          return mock(...)
        end
      end
      place(name, fn)
    end
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
