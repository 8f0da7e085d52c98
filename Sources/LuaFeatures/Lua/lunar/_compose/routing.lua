-- Composition, part two (after lunar/_compose/init.lua): running a body's children — finding an element
-- by id, routing a wrapped action to its child, wrapping the child's effect, and applying dismissals.
local base = require "lunar._base"
local host = require "lunar._host"
local compose = require "lunar._compose"
local describe, descriptionOf, effect = base.describe, base.descriptionOf, base.effect
local internals = host.internals
local childProxy, realOf, pathOf = internals.childProxy, internals.realOf, internals.pathOf
-- NB: C checks (journal.c): one call each where `type` and `rawget` would take two or three.
local isAction, hasID = internals.isAction, internals.hasID
local user = internals.user
local fail, showID = compose.fail, compose.showID

local type, rawget, rawset, rawequal, rawlen, setmetatable =
  type, rawget, rawset, rawequal, rawlen, setmetatable

---------------------------------------------------------------------------------------------------
-- Running a body

local indexes = setmetatable({}, { __mode = "k" })    -- array -> { [id] = index }

-- NB: routing runs outside the budget (see `reduce` below), so it must never run a script's code:
--     every read of a table that state or an action holds is raw (a script can plant metatables
--     with __index, __len or __eq on its own tables), and ids are compared with rawequal.

-- The index of the element whose `id` is `id`: cached per array, checked, rebuilt when stale.
local function indexOf(items, id)
  local cache = indexes[items]
  if cache ~= nil then
    local index = cache[id]
    if index ~= nil then
      local element = rawget(items, index)
      if type(element) == "table" and rawequal(rawget(element, "id"), id) then return index end
    else
      -- NB: a row added since is most often the last: found there, the cache is not rebuilt (a
      --     walk of the whole list, for the first action of every new row).
      local n = rawlen(items)
      local last = rawget(items, n)
      if type(last) == "table" and rawequal(rawget(last, "id"), id) then
        cache[id] = n
        return n
      end
    end
  end
  cache = {}
  local found = nil
  for index = 1, rawlen(items) do
    local element = rawget(items, index)
    local other = type(element) == "table" and rawget(element, "id") or nil
    if other ~= nil and rawequal(other, other) then
      if cache[other] == nil then cache[other] = index end
      if found == nil and rawequal(other, id) then found = index end
    end
  end
  indexes[items] = cache
  return found
end

local function childAction(name, e, action)
  local child = rawget(action, "action")
  if not isAction(child) then
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

-- `real` is the table behind `state`, or nil when `state` is a plain table; `atRoot` when `state`
-- is the root's proxy (whose path is empty).
local function elementOf(name, e, state, real, action, atRoot)
  local id = rawget(action, "id")
  if id == nil then
    fail(name, "an action for lunar." .. e.kind .. "(" .. describe(e.key) .. ") names its element: " ..
      "{ type = " .. describe(e.key) .. ", id = …, action = {…} }")
  end
  -- NB: `real` and the tables in it are plain state tables (no metatable but the empty-array
  --     marker's, which has no __index): indexing them needs no rawget.
  local items = rawget(real or state, e.key)
  -- NB: the cache's answer checked inline (only tables have one); indexOf rebuilds it when stale.
  local cache = items ~= nil and indexes[items]
  if not cache then
    if type(items) ~= "table" then
      fail(name, "state." .. e.key .. " is " .. describe(items) .. ", but lunar." .. e.kind .. " needs an array there")
    end
    if real == nil then items = realOf(items) or items end
    cache = indexes[items]
  end
  local index = cache and cache[id]
  if not (index and hasID(rawget(items, index), id)) then
    index = indexOf(items, id)
  end
  if index == nil then
    fail(name, "no element with id " .. showID(id) .. " in state." .. e.key ..
      " (it was removed, or the action names the wrong id)")
  end
  if real == nil then return id, rawget(items, index) end
  -- NB: the element's proxy is made directly (no proxy for the array on the way): this is the
  --     path of every row action. Its path runs from the root, as the journal needs.
  local parentPath = not atRoot and pathOf(state) or nil
  local path
  if parentPath == nil then
    -- NB: paths are never changed once made, so the root's element paths are made once.
    local paths = e.paths
    path = paths[index]
    if path == nil then
      path = { e.key, index }
      paths[index] = path
    end
  else
    local n = rawlen(parentPath)
    path = {}
    for i = 1, n do path[i] = parentPath[i] end
    path[n + 1], path[n + 2] = e.key, index
  end
  return id, childProxy(rawget(items, index), path, items)
end

-- Runs the child of `e` (a scope, an ifLet or a stack: a list's rows are the body's C loop's) for
-- `action`; returns its (wrapped) effect and the dismissals so far.
local function route(name, e, state, real, action, deps, dismissals)
  local kind, key = e.kind, e.key
  if kind == "scope" then
    -- NB: `state` is `real` itself, or a proxy (whose reads are the journal's own C code).
    local sub = rawequal(state, real) and rawget(real, key) or state[key]
    if type(sub) ~= "table" then
      fail(name, "state." .. key .. " is " .. describe(sub) .. ", but lunar.scope(" .. describe(key) ..
        ") needs a table there")
    end
    local result = user(e.child.reduce, sub, childAction(name, e, action), deps)
    return childEffect(result, e.child, key, nil, nil, "scope"), dismissals
  elseif kind == "ifLet" then
    local sub = childAction(name, e, action)
    local presented = rawget(real, key)
    if presented == nil then
      fail(name, "an action for lunar.ifLet(" .. describe(key) .. ") arrived while nothing is presented " ..
        "(state." .. key .. " is nil: dismissed twice, or sent after the parent removed it)")
    end
    if rawget(sub, "type") == "dismiss" then
      dismissals = dismissals or {}
      dismissals[#dismissals + 1] = e
      dismissals[#dismissals + 1] = false
      return nil, dismissals
    end
    local identity = type(presented) == "table" and rawget(presented, "id") or nil
    local child = rawequal(state, real) and presented or state[key]
    return childEffect(user(e.child.reduce, child, sub, deps), e.child, key, nil, identity, "ifLet"), dismissals
  else -- stack
    local sub = childAction(name, e, action)
    local id, element = elementOf(name, e, state, realOf(state), action)
    if rawget(sub, "type") == "dismiss" then
      dismissals = dismissals or {}
      dismissals[#dismissals + 1] = e
      dismissals[#dismissals + 1] = id
      return nil, dismissals
    end
    local plain = rawequal(state, real) or realOf(state) == nil
    local screen = plain and rawget(element, "screen") or element.screen
    local destination = e.destinations[screen]
    if destination == nil then
      fail(name, "the entry " .. showID(id) .. " of state." .. key .. " goes to " .. describe(screen) ..
        ", which is not a destination (destinations: " .. e.names .. ")")
    end
    local screenState = plain and rawget(element, "state") or element.state
    return childEffect(user(destination.reduce, screenState, sub, deps), destination, key, id, id, "stack"), dismissals
  end
end

-- Removes dismissed children, after the body ran (the parent could still read them).
local function applyDismissals(dismissals, state, real)
  for i = 1, #dismissals, 2 do
    local e, id = dismissals[i], dismissals[i + 1]
    local plain = rawequal(state, real)
    if e.kind == "ifLet" then
      if rawget(real, e.key) ~= nil then
        if plain then rawset(real, e.key, nil) else state[e.key] = nil end
      end
    else
      local items = plain and rawget(real, e.key) or state[e.key]
      local backing = type(items) == "table" and (realOf(items) or items) or nil
      local index = backing and indexOf(backing, id) or nil
      if index ~= nil then
        for j = rawlen(backing), index, -1 do
          if plain then rawset(items, j, nil) else items[j] = nil end
        end
      end
    end
  end
end

compose.childAction = childAction
compose.childEffect = childEffect
compose.elementOf = elementOf
compose.indexes = indexes
compose.route = route
compose.applyDismissals = applyDismissals
