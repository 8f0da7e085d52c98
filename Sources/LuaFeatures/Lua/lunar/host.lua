-- Host-only machinery for features, part one: state proxies and the write journal. Part two,
-- lunar/effects.lua, adds reducer calls, effects and dependencies to the same `host` table.
-- Scripts never see this table.
local base, emptyArray, core = ...  -- emptyArray: an empty array pushed by LuaBridge, for its marker;
                                      -- core: the C half of the hot path (CLuaShim's journal.c)
local describe = base.describe

local type, setmetatable, getmetatable, rawget, error, next = type, setmetatable, getmetatable, rawget, error, next
local tunpack = table.unpack

local host = { isFeature = base.isFeature }

---------------------------------------------------------------------------------------------------
-- State proxies and the write journal.
--
-- The reducer sees `state` through proxies: reads fall through to the resident table, writes are
-- recorded (table, key, old value) before they happen. On failure the journal is replayed
-- backwards, so the state is exactly as before the action; on success it names what changed, so
-- Swift patches its snapshot instead of reading the whole state.
--
-- State has value semantics, as in Swift: a table is never in two places of the state. Assigning
-- a table that already is (`state.b = state.a`, or the same new table twice) stores a copy —
-- except for moves inside one table (`table.sort`, `table.remove`), checked after the call.

local REAL, PATH, GEN, PARENT = {}, {}, {}, {}
local ROOT = {}                 -- the path of the root table in journal entries
-- NB: the call's scalars live in C (journal.c), shared with its metamethods and reducer call;
--     Lua reads and writes them as slots: whether a call runs, its generation, the journal's
--     length, the effect handles it registered, the tables it shuffled, the nested proxies it made.
local ACTIVE, GENERATION, COUNT, PENDING, SHUFFLED, PROXIES, ROOTPROXY = 1, 2, 3, 4, 5, 6, 7
local st = core.state()
local rootReal = core.rootReal

-- The table behind a proxy: nested ones carry it, the root proxy's metamethods close over it.
local function realOf(value)
  return rawget(value, REAL) or rootReal(value)
end
local proxies = {}              -- real table -> nested proxy, for the current reducer call
local journal = {}
local proxyMT = {}
proxyMT.__name = "lunar.state"
proxyMT.__metatable = "lunar.state"
-- NB: a nested proxy is made in C: `{ [REAL] = real, [PATH] = path, [GEN] = generation,
--     [PARENT] = parent }` with proxyMT, in one call.
local makeProxy = core.proxyMaker(st, REAL, PATH, GEN, PARENT, proxyMT)
local inState = setmetatable({}, { __mode = "k" })       -- tables known to be part of a state
local shuffled = {}                                      -- tables whose elements moved this call

-- NB: LuaBridge marks the empty arrays it pushes with a metatable (so they read back as arrays);
--     such a table is state like any plain one, and must be proxied too or its writes escape the
--     journal.
local arrayMarker = getmetatable(emptyArray)

local function isStateTable(value)
  if type(value) ~= "table" then return false end
  local mt = getmetatable(value)
  return mt == nil or mt == arrayMarker
end

local function stale(key)
  error("state used outside its reducer call (reading or writing " .. describe(key) .. "). " ..
    "Effects run later: capture the values you need (`local n = state.count`) before returning " ..
    "fx.run, and never keep `state` itself.", 3)
end

local function childPath(path, key)
  local n = #path
  local result = { }
  for i = 1, n do result[i] = path[i] end
  result[n + 1] = key
  return result
end

-- Nested tables get a proxy per reducer call (their place in the state can change between calls).
local function proxyOf(real, path, parent)
  local proxy = proxies[real]
  if proxy == nil then
    proxy = makeProxy(real, path, parent)
    proxies[real] = proxy
    st[PROXIES] = st[PROXIES] + 1
    inState[real] = true
  end
  return proxy
end

local function markInState(t, depth)
  inState[t] = true
  if depth > 200 then return end
  for _, v in next, t do
    if isStateTable(v) and not inState[v] then markInState(v, depth + 1) end
  end
end

local function copyOf(t, depth)
  if depth > 200 then error("state nested too deeply (over 200 levels)", 0) end
  local copy = {}
  for k, v in next, t do
    if isStateTable(v) then v = copyOf(v, depth + 1) end
    copy[k] = v
  end
  local mt = getmetatable(t)
  if mt == arrayMarker then setmetatable(copy, mt) end
  return copy
end

local NOT_DATA = { ["function"] = "a function", thread = "a coroutine", userdata = "a userdata" }

-- A new table entering the state: marks it and its new sub-tables as state, and replaces the
-- proxies inside it (a filtered list of rows, `{ state.todos[1] }`) by copies of their tables.
-- Refuses what is not data, at the author's assignment: `stored` and the C metamethod sit between
-- the outermost `adopt` and the script (hence level depth + 4).
local function adopt(t, depth)
  inState[t] = true
  if depth > 200 then return end
  for k, v in next, t do
    local notData = NOT_DATA[type(v)]
    if notData ~= nil then
      error("cannot store " .. notData .. " in state (at " .. describe(k) .. " of an assigned table): " ..
        "state holds data only (nil, booleans, numbers, strings and tables); keep functions in the feature's module",
        depth + 4)
    end
    if type(v) == "table" then
      local real = getmetatable(v) == "lunar.state" and realOf(v) or nil
      if real ~= nil then
        local copy = copyOf(real, 0)
        markInState(copy, 0)
        t[k] = copy
      elseif not inState[v] and isStateTable(v) then
        adopt(v, depth + 1)
      end
    end
  end
end

-- What to store when `value` is assigned into `target`: plain values as they are; tables
-- unwrapped from their proxies and copied when they are already part of the state elsewhere.
local function stored(value, target)
  if type(value) ~= "table" then return value end
  local real = realOf(value)
  local parent = rawget(value, PARENT)
  if real == nil then real = value end
  if not isStateTable(real) then return value end
  if inState[real] then
    if parent == target then
      -- NB: a move inside one table (sorting, removing): duplicates are resolved after the call.
      if not shuffled[target] then
        shuffled[target] = true
        st[SHUFFLED] = st[SHUFFLED] + 1
      end
      return real
    end
    real = copyOf(real, 0)
    markInState(real, 0)
    return real
  end
  adopt(real, 0)
  return real
end

local function pairsOf(real, path)
  return function(_, key)
    local k, v = next(real, key)
    if isStateTable(v) then
      v = proxyOf(v, childPath(path, k), real)
    end
    return k, v
  end
end

-- NB: reads and writes, the hot path of every action, are C closures (journal.c); they call
--     back `proxyOf`, `childPath` and `stored` when a table is read or assigned.
proxyMT.__index, proxyMT.__newindex =
  core.methods(st, GEN, REAL, PATH, arrayMarker, proxyOf, stale, journal, stored, ROOT, childPath)

proxyMT.__len = function(proxy)
  if not st[ACTIVE] or rawget(proxy, GEN) ~= st[GENERATION] then stale("#") end
  return #rawget(proxy, REAL)
end

proxyMT.__pairs = function(proxy)
  if not st[ACTIVE] or rawget(proxy, GEN) ~= st[GENERATION] then stale("pairs") end
  return pairsOf(rawget(proxy, REAL), rawget(proxy, PATH)), proxy, nil
end

-- The root proxy's metatable is made once per resident state and kept; each call gets a fresh,
-- empty proxy (journal.c), the only root proxy live during the call, so a `state` kept from an
-- earlier call is refused. The metamethods close over the table.
local rootMetatables = setmetatable({}, { __mode = "k" })   -- resident state table -> metatable

local function rootMetatableOf(real)
  local metatable = rootMetatables[real]
  if metatable ~= nil then return metatable end
  markInState(real, 0)
  local index, newindex =
    core.methods(st, GEN, REAL, PATH, arrayMarker, proxyOf, stale, journal, stored, ROOT, childPath, real)
  metatable = {
    __name = "lunar.state",
    __metatable = "lunar.state",
    __index = index,
    __newindex = newindex,
    __len = function(proxy)
      if not st[ACTIVE] or st[ROOTPROXY] ~= proxy then stale("#") end
      return #real
    end,
    __pairs = function(proxy)
      if not st[ACTIVE] or st[ROOTPROXY] ~= proxy then stale("pairs") end
      return pairsOf(real, {}), proxy, nil
    end,
  }
  rootMetatables[real] = metatable
  return metatable
end

-- After elements moved inside a table, one may now be there twice: keep the first, copy the rest.
local function resolveShuffles()
  for container in next, shuffled do
    local seen = {}
    for key, value in next, container do
      if isStateTable(value) then
        if seen[value] then
          local copy = copyOf(value, 0)
          markInState(copy, 0)
          -- NB: journaled like any write, so the snapshot gets the copy and a rollback undoes it.
          local n = st[COUNT]
          journal[n + 1] = container
          journal[n + 2] = key
          journal[n + 3] = value
          journal[n + 4] = false      -- path unknown here: the host re-reads the whole state
          st[COUNT] = n + 4
          container[key] = copy
        else
          seen[value] = true
        end
      end
    end
  end
  shuffled = {}
  st[SHUFFLED] = 0
end

local function endCall()
  st[ACTIVE] = false
  if st[SHUFFLED] > 0 then resolveShuffles() end
  if st[PROXIES] > 0 then
    proxies = {}
    st[PROXIES] = 0
  end
end

local pendingHandles = {}       -- handles registered by the call in progress

local function clearJournal()
  for i = 1, st[COUNT] do journal[i] = nil end
  st[COUNT] = 0
end

-- Undoes every write of the last call, newest first, and forgets the effects it described.
local function rollback()
  for i = st[COUNT] - 3, 1, -4 do
    journal[i][journal[i + 1]] = journal[i + 2]
  end
  clearJournal()
  st[ACTIVE] = false
  shuffled = {}
  st[SHUFFLED] = 0
  if st[PROXIES] > 0 then
    proxies = {}
    st[PROXIES] = 0
  end
  for i = st[PENDING], 1, -1 do
    host.dropHandle(pendingHandles[i])
    pendingHandles[i] = nil
  end
  st[PENDING] = 0
end

-- Keeps the writes of the last call. The next call commits implicitly: the host calls `rollback`
-- when it cannot use a call's results, and nothing otherwise.
local function commit()
  -- NB: stale entries are overwritten by the next writes; only a long journal is cleared, so that
  --     it does not keep large old values alive.
  if st[COUNT] > 64 then clearJournal() else st[COUNT] = 0 end
  for i = st[PENDING], 1, -1 do pendingHandles[i] = nil end
  st[PENDING] = 0
end

-- The changes of the last call, flat, in a table reused between calls: path, key, isNil, value —
-- with `false` for a nil value so the array has no holes. A path is the array of keys from the
-- root, `0` for the root itself; `false` means "unknown: re-read the whole state".
local out, outCount = {}, 0

local function changes()
  if st[COUNT] == 0 then return nil end
  local k = 0
  for i = 1, st[COUNT], 4 do
    local real, key, path = journal[i], journal[i + 1], journal[i + 3]
    local value = real[key]
    if path == ROOT then path = 0 end
    out[k + 1] = path
    out[k + 2] = key
    out[k + 3] = value == nil
    if value == nil then out[k + 4] = false else out[k + 4] = value end
    k = k + 4
  end
  for i = k + 1, outCount do out[i] = nil end
  outCount = k
  return out
end

-- The changes as results: their count followed by the flat entries (scalars read fast on the
-- host side); a long list goes as the table itself.
local function changeResults()
  if st[COUNT] == 4 then
    -- NB: one write, the most common action: no table at all.
    local real, key, path = journal[1], journal[2], journal[4]
    local value = real[key]
    if path == ROOT then path = 0 end
    if value == nil then return 1, path, key, true, false end
    return 1, path, key, false, value
  end
  changes()
  if outCount <= 400 then return outCount // 4, tunpack(out, 1, outCount) end
  return out
end

host.rollback = rollback
host.commit = commit

--- What the rest of the host's Lua needs of the journal. For composition (lunar/compose*.lua): the
--- proxies' keys to their table and path, nested proxies, the journal itself (entries of four:
--- table, key, old value, path) and its length (`st[COUNT]`). For reducer calls
--- (lunar/effects.lua): the C half of the call, the call's slots, its pending effect handles, and
--- the functions that make, end and report a call.
host.internals = {
  REAL = REAL,
  realOf = realOf,
  PATH = PATH,
  proxyOf = proxyOf,
  -- NB: a proxy left out of the per-call cache (so the call ends without resetting it): for the
  --     one child proxy composition makes per action. `real` is already part of the state.
  childProxy = makeProxy,
  journal = journal,
  st = st,
  COUNT = COUNT,
  isAction = core.isAction,
  hasID = core.hasID,
  -- NB: the budget around trusted code (journal.c): composition runs untimed, authors' code timed.
  untimed = core.untimed,
  timed = core.timed,
  user = core.user,

  core = core,
  ROOT = ROOT,
  PENDING = PENDING,
  pendingHandles = pendingHandles,
  rootMetatables = rootMetatables,
  rootMetatableOf = rootMetatableOf,
  commit = commit,
  endCall = endCall,
  changeResults = changeResults,
}

return host
