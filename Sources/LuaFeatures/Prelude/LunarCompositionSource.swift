/// The Lua source of composition: `lunar.scope`, `lunar.forEach`, `lunar.ifLet`, `lunar.stack`,
/// `lunar.reduce` and `lunar.push`, and the reducer a feature's `body` becomes.
///
/// ## Design
///
/// A composed feature is one resident state table, like any feature: its children live in
/// sub-tables of it (`state.counter`, `state.todos[i]`, `state.detail`, `state.path[i].state`).
/// `lunar.feature { body = … }` turns the body into one Lua `reduce` function, so the host runs it
/// exactly like a plain reducer — one `host.reduce` call, one journal, one transaction:
///
/// - The body runs in order. A child entry handles the actions addressed to it (`type` is its
///   key) by calling the child's `reduce` on a *proxy of its sub-table*, obtained by indexing the
///   parent's proxy: every write the child makes is journaled with its path from the root, so a
///   failure anywhere rolls the whole action back and Swift patches its snapshot as usual.
///   `lunar.reduce` entries see every action, wrapped ones included. List children first, as in
///   TCA's `body`: child before parent.
/// - A child's effect comes back wrapped in a `child` effect (key, element id, identity, mode);
///   Swift translates the inner effect with the child's scope: actions it sends are wrapped
///   (`{ type = "todos", id = 3, action = … }`), the whole is `Effect.scoped(to:)` a
///   ``LuaChildScope`` (so cancellation ids are per child instance), and `fx.dismiss()` becomes the
///   nearest presenting parent's dismiss action.
/// - Dismissals (`{ type = "detail", action = { type = "dismiss" } }`, and the same with an `id`
///   for a stack entry) run the parent's reducers first, then remove the child (a stack entry and
///   the entries above it).
/// - Removal is found from the journal, after the body: a container (`state.todos`, a stack, an
///   ifLet field) was touched only if the journal holds a write to it or to its field. Only then
///   are old ids (the journal's old values) compared with the ids now there; each id gone becomes a
///   `cancelChild` effect, which Swift turns into `Effect.cancel(scope:)`. An action that does not
///   touch a container pays one pass over a (usually one-entry) journal. Touched containers are
///   also validated (tables with ids, no duplicates, known stack destinations): a malformed child
///   state raises, so the action is rolled back.
/// - `forEach` and `stack` find an element by id through a cache (id → index) per array, checked
///   on use and rebuilt when stale: addressing the 500th of 1,000 rows does not scan them.
/// - Stack ids come from a counter per feature instance, kept here and made current by
///   `host.bind`'s closure; they start at 0 and are never reused (not even those of an action that
///   was rolled back).
enum LunarCompositionSource {
  static let chunkName = "lunar_compose.lua"

  static let source = #"""
-- Composition declared in a feature's `body`, run inside the host's journaled reducer call.
local base, host = ...
local lunar, hooks, effect = base.lunarTable, base.hooks, base.effect
local describe, isFeature, isEffect, descriptionOf, definedAt =
  base.describe, base.isFeature, base.isEffect, base.descriptionOf, base.definedAt
local internals = host.internals
local REAL, PATH, childProxy = internals.REAL, internals.PATH, internals.childProxy
local journal, journalLength = internals.journal, internals.journalLength

local type, rawget, error, pairs, next, setmetatable, getmetatable, tostring =
  type, rawget, error, pairs, next, setmetatable, getmetatable, tostring
local mathtype = math.type

---------------------------------------------------------------------------------------------------
-- Body entries

local entries = setmetatable({}, { __mode = "k" })

local function entry(t)
  entries[t] = true
  return t
end

local function checkKey(what, key)
  if type(key) ~= "string" or key == "" then
    error(what .. " expects the name of a state field first, got " .. describe(key), 3)
  end
end

local function checkChild(what, key, child)
  if not isFeature(child) then
    error(what .. "(" .. describe(key) .. ", …) expects a feature (what lunar.feature returns), got " ..
      describe(child), 3)
  end
end

--- lunar.scope("counter", Counter): Counter runs on state.counter.
function lunar.scope(key, child)
  checkKey("lunar.scope", key)
  checkChild("lunar.scope", key, child)
  return entry { kind = "scope", key = key, child = child }
end

--- lunar.forEach("todos", Todo): Todo runs on each element of state.todos, found by its `id`.
function lunar.forEach(key, child)
  checkKey("lunar.forEach", key)
  checkChild("lunar.forEach", key, child)
  return entry { kind = "forEach", key = key, child = child, paths = {} }
end

--- lunar.ifLet("detail", Detail): Detail runs on state.detail while it is not nil.
function lunar.ifLet(key, child)
  checkKey("lunar.ifLet", key)
  checkChild("lunar.ifLet", key, child)
  return entry { kind = "ifLet", key = key, child = child }
end

--- lunar.stack("path", { detail = Detail, … }): each entry { id, screen, state } of state.path
--- runs the destination named by its `screen`.
function lunar.stack(key, destinations)
  checkKey("lunar.stack", key)
  if type(destinations) ~= "table" or isFeature(destinations) then
    error("lunar.stack(" .. describe(key) .. ", …) expects its destinations by name, like { detail = Detail }, got " ..
      describe(destinations), 2)
  end
  local copy, names = {}, {}
  for name, child in pairs(destinations) do
    if type(name) ~= "string" then
      error("lunar.stack(" .. describe(key) .. ", …): destinations are named by strings, got " .. describe(name), 2)
    end
    checkChild("lunar.stack(" .. describe(key) .. ", …): destination", name, child)
    copy[name] = child
    names[#names + 1] = name
  end
  if #names == 0 then
    error("lunar.stack(" .. describe(key) .. ", …) needs at least one destination, like { detail = Detail }", 2)
  end
  table.sort(names)
  return entry { kind = "stack", key = key, destinations = copy, names = table.concat(names, ", "), paths = {} }
end

--- lunar.reduce(function(state, action, deps) … end): the feature's own reducer in its body.
function lunar.reduce(fn)
  if type(fn) ~= "function" then
    error("lunar.reduce expects a function(state, action, deps), got " .. describe(fn), 2)
  end
  return entry { kind = "reduce", fn = fn, origin = definedAt(fn) }
end

---------------------------------------------------------------------------------------------------
-- Instances and stack ids

local composedReducers = setmetatable({}, { __mode = "k" })
local fallback = { nextID = 0 }
local current = fallback          -- the instance of the call in progress
local stacks = setmetatable({}, { __mode = "k" })      -- a stack's array -> its entry

host.enterInstance = function(reduce)
  if not composedReducers[reduce] then return nil end
  local instance = { nextID = 0 }
  return function()
    current = instance
    depth = 0
  end
end

local function copyState(t, depth)
  if depth > 200 then error("state nested too deeply (over 200 levels)", 0) end
  local copy = {}
  for k, v in next, t do
    if type(v) == "table" and getmetatable(v) == nil then v = copyState(v, depth + 1) end
    copy[k] = v
  end
  return copy
end

--- lunar.push(state.path, "detail" [, childState]) -> id: pushes a stack entry; the id is new.
function lunar.push(list, screen, childState)
  if type(list) ~= "table" or getmetatable(list) ~= "lunar.state" then
    error("lunar.push expects a stack of the state, as in lunar.push(state.path, \"detail\", {…}), got " ..
      describe(list), 2)
  end
  if type(screen) ~= "string" then
    error("lunar.push expects the name of a destination, got " .. describe(screen), 2)
  end
  local real = rawget(list, REAL)
  local stack = stacks[real]
  local destination = stack and stack.destinations[screen]
  if stack ~= nil and destination == nil then
    error("lunar.push: " .. describe(screen) .. " is not a destination of lunar.stack(" .. describe(stack.key) ..
      ") (destinations: " .. stack.names .. ")", 2)
  end
  if childState == nil and destination ~= nil then
    childState = copyState(destination.initial, 0)
  elseif type(childState) ~= "table" then
    error("lunar.push: the state of " .. describe(screen) .. " must be a table, got " .. describe(childState), 2)
  end
  local id = current.nextID
  for i = 1, #real do
    local other = rawget(real[i], "id")
    if mathtype(other) == "integer" and other >= id then id = other + 1 end
  end
  current.nextID = id + 1
  local n = #list + 1
  list[n] = { id = id, screen = screen }
  -- NB: assigned on its own, so that a proxy (`state.somewhere`) is stored as a copy.
  list[n].state = childState
  return id
end

---------------------------------------------------------------------------------------------------
-- Running a body

local indexes = setmetatable({}, { __mode = "k" })    -- array -> { [id] = index }

-- The index of the element whose `id` is `id`: cached per array, checked, rebuilt when stale.
local function indexOf(items, id)
  local cache = indexes[items]
  if cache ~= nil then
    local index = cache[id]
    if index ~= nil then
      local element = items[index]
      if type(element) == "table" and rawget(element, "id") == id then return index end
    end
  end
  cache = {}
  local found = nil
  for index = 1, #items do
    local element = items[index]
    local other = type(element) == "table" and rawget(element, "id") or nil
    if other ~= nil and other == other then
      if cache[other] == nil then cache[other] = index end
      if found == nil and other == id then found = index end
    end
  end
  indexes[items] = cache
  return found
end

local depth = 0                   -- how deep in composed features the call in progress is

local function fail(name, message)
  -- NB: the host names the root feature; a child's name is added only for a child.
  error(depth > 1 and (message .. " (in " .. name .. ")") or message, 0)
end

local function showID(id)
  return type(id) == "number" and tostring(id) or describe(id)
end

local function childAction(name, e, action)
  local child = action.action
  if type(child) ~= "table" or type(rawget(child, "type")) ~= "string" then
    local id = (e.kind == "forEach" or e.kind == "stack") and ", id = …" or ""
    fail(name, "an action for lunar." .. e.kind .. "(" .. describe(e.key) .. ") carries its child's action, as in " ..
      "{ type = " .. describe(e.key) .. id .. ", action = { type = … } }; got action = " .. describe(child))
  end
  return child
end

local function childEffect(result, child, key, id, identity, mode)
  if result == nil then return nil end
  local description = descriptionOf(result)
  if description == nil then
    fail(child.name, "reduce (" .. child.origin .. ") returned " .. describe(result) ..
      "; return an effect from lunar.fx (or nothing)")
  end
  if description.kind == "none" then return nil end
  return effect { kind = "child", key = key, id = id, identity = identity, mode = mode, effect = result }
end

local function elementOf(name, e, state, action)
  local id = action.id
  if id == nil then
    fail(name, "an action for lunar." .. e.kind .. "(" .. describe(e.key) .. ") names its element: " ..
      "{ type = " .. describe(e.key) .. ", id = …, action = {…} }")
  end
  local real = rawget(state, REAL)
  local items = real and rawget(real, e.key) or state[e.key]
  if type(items) ~= "table" then
    fail(name, "state." .. e.key .. " is " .. describe(items) .. ", but lunar." .. e.kind .. " needs an array there")
  end
  items = rawget(items, REAL) or items
  -- NB: the cache's answer checked inline; indexOf rebuilds it when stale.
  local cache = indexes[items]
  local index = cache and cache[id]
  local element = index and items[index]
  if type(element) ~= "table" or rawget(element, "id") ~= id then index = indexOf(items, id) end
  if index == nil then
    fail(name, "no element with id " .. showID(id) .. " in state." .. e.key ..
      " (it was removed, or the action names the wrong id)")
  end
  if real == nil then return id, items[index] end
  -- NB: the element's proxy is made directly (no proxy for the array on the way): this is the
  --     path of every row action. Its path runs from the root, as the journal needs.
  local base = rawget(state, PATH)
  local path
  if base == nil then
    -- NB: paths are never changed once made, so the root's element paths are made once.
    local paths = e.paths
    path = paths[index]
    if path == nil then
      path = { e.key, index }
      paths[index] = path
    end
  else
    local n = #base
    path = {}
    for i = 1, n do path[i] = base[i] end
    path[n + 1], path[n + 2] = e.key, index
  end
  return id, childProxy(items[index], path, items)
end

-- Runs the child of `e` for `action`; returns its (wrapped) effect and the dismissals so far.
local function route(name, e, state, real, action, deps, dismissals)
  local kind, key = e.kind, e.key
  if kind == "scope" then
    local sub = state[key]
    if type(sub) ~= "table" then
      fail(name, "state." .. key .. " is " .. describe(sub) .. ", but lunar.scope(" .. describe(key) .. ") needs a table there")
    end
    return childEffect(e.child.reduce(sub, childAction(name, e, action), deps), e.child, key, nil, nil, "scope"), dismissals
  elseif kind == "forEach" then
    local sub = childAction(name, e, action)
    local id, element = elementOf(name, e, state, action)
    return childEffect(e.child.reduce(element, sub, deps), e.child, key, id, id, "forEach"), dismissals
  elseif kind == "ifLet" then
    local sub = childAction(name, e, action)
    local presented = rawget(real, key)
    if presented == nil then
      fail(name, "an action for lunar.ifLet(" .. describe(key) .. ") arrived while nothing is presented " ..
        "(state." .. key .. " is nil: dismissed twice, or sent after the parent removed it)")
    end
    if sub.type == "dismiss" then
      dismissals = dismissals or {}
      dismissals[#dismissals + 1] = e
      dismissals[#dismissals + 1] = false
      return nil, dismissals
    end
    local identity = type(presented) == "table" and rawget(presented, "id") or nil
    return childEffect(e.child.reduce(state[key], sub, deps), e.child, key, nil, identity, "ifLet"), dismissals
  else -- stack
    local sub = childAction(name, e, action)
    local id, element = elementOf(name, e, state, action)
    if sub.type == "dismiss" then
      dismissals = dismissals or {}
      dismissals[#dismissals + 1] = e
      dismissals[#dismissals + 1] = id
      return nil, dismissals
    end
    local screen = element.screen
    local destination = e.destinations[screen]
    if destination == nil then
      fail(name, "the entry " .. showID(id) .. " of state." .. key .. " goes to " .. describe(screen) ..
        ", which is not a destination (destinations: " .. e.names .. ")")
    end
    return childEffect(destination.reduce(element.state, sub, deps), destination, key, id, id, "stack"), dismissals
  end
end

-- Removes dismissed children, after the body ran (the parent could still read them).
local function applyDismissals(dismissals, state, real)
  for i = 1, #dismissals, 2 do
    local e, id = dismissals[i], dismissals[i + 1]
    if e.kind == "ifLet" then
      if rawget(real, e.key) ~= nil then state[e.key] = nil end
    else
      local items = state[e.key]
      local index = type(items) == "table" and indexOf(rawget(items, REAL) or items, id) or nil
      if index ~= nil then
        for j = #items, index, -1 do items[j] = nil end
      end
    end
  end
end

local function addID(ids, element)
  if type(element) ~= "table" then return ids end
  local id = rawget(element, "id")
  if id == nil or id ~= id then return ids end
  ids = ids or {}
  ids[id] = true
  return ids
end

-- The ids of the elements state[key] held before this action and that were written over; whether
-- it was touched at all.
local function previousIDs(real, key, items)
  local n = journalLength()
  local touched, ids, replaced = false, nil, nil
  for i = 1, n, 4 do
    local t = journal[i]
    if t == items then
      touched = true
      ids = addID(ids, journal[i + 2])
    elseif t == real and journal[i + 1] == key then
      touched = true
      local old = journal[i + 2]
      if type(old) == "table" and old ~= items then
        replaced = replaced or {}
        replaced[old] = true
        for j = 1, #old do ids = addID(ids, old[j]) end
      end
    end
  end
  if replaced ~= nil then
    for i = 1, n, 4 do
      if replaced[journal[i]] then ids = addID(ids, journal[i + 2]) end
    end
  end
  return touched, ids
end

local function cancelChild(effects, count, key, identity)
  count = count + 1
  effects = effects or {}
  effects[count] = effect { kind = "cancelChild", key = key, identity = identity }
  return effects, count
end

-- Checks a touched array of children and cancels the effects of those no longer in it.
local function checkElements(name, e, real, effects, count)
  local key = e.key
  local items = rawget(real, key)
  local touched, ids = previousIDs(real, key, items)
  if not touched then return effects, count end
  if items ~= nil and type(items) ~= "table" then
    fail(name, "state." .. key .. " must be an array of child states, got " .. describe(items))
  end
  local seen = {}
  for i = 1, items and #items or 0 do
    local element = items[i]
    local at = "state." .. key .. "[" .. i .. "]"
    if type(element) ~= "table" then fail(name, at .. " is " .. describe(element) .. ", not a child state (a table)") end
    local id = rawget(element, "id")
    if e.kind == "stack" then
      if mathtype(id) ~= "integer" then
        fail(name, at .. " has no stack id (push entries with lunar.push(state." .. key .. ", screen, state))")
      end
      local screen = rawget(element, "screen")
      if e.destinations[screen] == nil then
        fail(name, at .. " goes to " .. describe(screen) .. ", which is not a destination of lunar.stack(" ..
          describe(key) .. ") (destinations: " .. e.names .. ")")
      end
      if type(rawget(element, "state")) ~= "table" then
        fail(name, at .. ".state must be the state of " .. describe(screen) .. " (a table), got " ..
          describe(rawget(element, "state")))
      end
    elseif (type(id) ~= "string" and type(id) ~= "number") or id ~= id then
      fail(name, at .. " needs an `id` (a string or number) for lunar.forEach(" .. describe(key) .. "), got " .. describe(id))
    end
    if seen[id] then fail(name, "two elements of state." .. key .. " have the id " .. showID(id)) end
    seen[id] = true
  end
  if ids ~= nil then
    for id in next, ids do
      if not seen[id] then effects, count = cancelChild(effects, count, key, id) end
    end
  end
  return effects, count
end

-- Cancels the effects of a presented child that went away or was replaced by another identity.
local function checkPresented(name, e, real, effects, count)
  local key = e.key
  for i = 1, journalLength(), 4 do
    if journal[i] == real and journal[i + 1] == key then
      local before, now = journal[i + 2], rawget(real, key)
      if now ~= nil and type(now) ~= "table" then
        fail(name, "state." .. key .. " must be the state of a presented child (a table) or nil, got " .. describe(now))
      end
      if type(before) == "table" and before ~= now then
        local identity = rawget(before, "id")
        if now == nil or rawget(now, "id") ~= identity then
          effects, count = cancelChild(effects, count, key, identity)
        end
      end
      return effects, count
    end
  end
  return effects, count
end

-- Whether this action wrote to `real` itself or to one of its containers: only then can a child
-- have gone (a write inside a child cannot remove it).
local function touches(real, containers, containerCount)
  for i = 1, journalLength(), 4 do
    local t = journal[i]
    if t == real then return true end
    for c = 1, containerCount do
      if t == rawget(real, containers[c].key) then return true end
    end
  end
  return false
end

---------------------------------------------------------------------------------------------------
-- A body becomes a reducer

function hooks.compose(feature, level)
  local name, body = feature.name, feature.body
  if type(body) ~= "table" or entries[body] then
    error("feature " .. name .. ": `body` must be a list like { lunar.forEach(\"todos\", Todo), lunar.reduce(fn) }, got " ..
      describe(body), level + 1)
  end
  local list, containers, stackEntries, keys, size = {}, {}, {}, {}, 0
  for _ in pairs(body) do size = size + 1 end
  if size == 0 or size ~= #body then
    error("feature " .. name .. ": `body` must be a non-empty list of lunar.scope, lunar.forEach, lunar.ifLet, " ..
      "lunar.stack and lunar.reduce", level + 1)
  end
  local origin = nil
  for i = 1, #body do
    local e = body[i]
    if not entries[e] then
      error("feature " .. name .. ": body[" .. i .. "] is " .. describe(e) ..
        "; expected lunar.scope, lunar.forEach, lunar.ifLet, lunar.stack or lunar.reduce", level + 1)
    end
    list[i] = e
    if e.kind == "reduce" then
      origin = origin or e.origin
    else
      if keys[e.key] then
        error("feature " .. name .. ": two children of the body use state." .. e.key, level + 1)
      end
      keys[e.key] = true
      if e.kind ~= "scope" then containers[#containers + 1] = e end
      if e.kind == "stack" then stackEntries[#stackEntries + 1] = e end
      origin = origin or (e.child and e.child.origin)
    end
  end
  local n, containerCount, stackCount = #list, #containers, #stackEntries

  local function reduce(state, action, deps)
    local real = rawget(state, REAL) or state
    depth = depth + 1
    for s = 1, stackCount do
      local items = rawget(real, stackEntries[s].key)
      if type(items) == "table" then stacks[items] = stackEntries[s] end
    end
    local actionType = action.type
    local effects, count, dismissals = nil, 0, nil
    for i = 1, n do
      local e = list[i]
      local result = nil
      if e.kind == "reduce" then
        result = e.fn(state, action, deps)
        if result ~= nil then
          local description = descriptionOf(result)
          if description == nil then
            fail(name, "lunar.reduce (" .. e.origin .. ") returned " .. describe(result) ..
              "; return an effect from lunar.fx (or nothing)")
          end
          if description.kind == "none" then result = nil end
        end
      elseif actionType == e.key then
        if e.kind == "forEach" then
          -- NB: inlined route(): the path of every row action.
          local sub = action.action
          if type(sub) ~= "table" or type(rawget(sub, "type")) ~= "string" then childAction(name, e, action) end
          local id, element = elementOf(name, e, state, action)
          result = e.child.reduce(element, sub, deps)
          if result ~= nil then result = childEffect(result, e.child, e.key, id, id, "forEach") end
        else
          result, dismissals = route(name, e, state, real, action, deps, dismissals)
        end
      end
      if result ~= nil then
        count = count + 1
        if effects == nil then effects = { result } else effects[count] = result end
      end
    end
    if dismissals ~= nil then applyDismissals(dismissals, state, real) end
    if containerCount > 0 and touches(real, containers, containerCount) then
      for c = 1, containerCount do
        local e = containers[c]
        if e.kind == "ifLet" then
          effects, count = checkPresented(name, e, real, effects, count)
        else
          effects, count = checkElements(name, e, real, effects, count)
        end
      end
    end
    depth = depth - 1
    if count == 0 then return nil end
    if count == 1 then return effects[1] end
    return effect { kind = "merge", effects = effects }
  end

  composedReducers[reduce] = true
  return reduce, origin or name
end

return true
"""#
}
