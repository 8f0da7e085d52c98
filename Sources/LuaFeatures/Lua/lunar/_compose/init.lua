-- Composition, part one: the entries of a feature's `body` (`lunar.scope`, `lunar.forEach`,
-- `lunar.ifLet`, `lunar.stack`, `lunar.reduce`), `lunar.push`, and the reducer a body becomes.
-- Part two runs a body's children (lunar/_compose/routing.lua); part three finds the children an
-- action removed (lunar/_compose/removal.lua). They are loaded after this file and share what they
-- need through the table it returns. The loop over a body's entries for each action is C
-- (CLuaTransaction's routing.c): it runs the reducers, finds a list's row through the cache
-- below, collects the effects, and calls back here for everything else (the other children, an
-- element it has no cache for, wrapping an effect, every error and its message).
--
-- A composed feature is one resident state table, like any feature: its children live in
-- sub-tables of it (`state.counter`, `state.todos[i]`, `state.detail`, `state.path[i].state`).
-- `lunar.feature { body = … }` turns the body into one `reduce` function, so the host runs it
-- exactly like a plain reducer — one `host.reduce` call, one journal, one transaction:
--
-- - The body runs in order. A child entry handles the actions addressed to it (`type` is its
--   key) by calling the child's `reduce` on a *proxy of its sub-table*, obtained by indexing the
--   parent's proxy: every write the child makes is journaled with its path from the root, so a
--   failure anywhere rolls the whole action back and Swift patches its snapshot as usual.
--   `lunar.reduce` entries see every action, wrapped ones included. List children first, as in
--   TCA's `body`: child before parent.
-- - A child's effect comes back wrapped in a `child` effect (key, element id, identity, mode);
--   Swift translates the inner effect with the child's scope: actions it sends are wrapped
--   (`{ type = "todos", id = 3, action = … }`), the whole is `Effect.scoped(to:)` a
--   `LuaChildScope` (so cancellation ids are per child instance), and `fx.dismiss()` becomes the
--   nearest presenting parent's dismiss action.
-- - Dismissals (`{ type = "detail", action = { type = "dismiss" } }`, and the same with an `id`
--   for a stack entry) run the parent's reducers first, then remove the child (a stack entry and
--   the entries above it).
-- - Removal is found from the journal, after the body: a container (`state.todos`, a stack, an
--   ifLet field) was touched only if the journal holds a write to it or to its field (or to an
--   element's `id`). Only then are old ids (the journal's old values) compared with the ids now
--   there; each id gone becomes a `cancelChild` effect, which Swift turns into
--   `Effect.cancel(scope:)`. An action that does not touch a container pays one pass over a
--   (usually one-entry) journal. Touched containers are also validated (tables with ids, no
--   duplicates, known stack destinations): a malformed child state raises, so the action is rolled
--   back. A forEach list keeps its ids from one check to the next (lunar/_compose/removal.lua), so
--   only the rows an action wrote are checked again.
-- - `forEach` and `stack` find an element by id through a cache (id → index) per array, checked
--   on use and rebuilt when stale: addressing the 500th of 1,000 rows does not scan them.
-- - Stack ids come from a counter per feature instance, kept here and made current by the
--   routing when the host's bound call passes it; they start at 0 and are never reused (not even
--   those of an action that was rolled back).
local base = require "lunar._base"
local host = require "lunar._host"
-- NB: after it: `host.enterInstance` below replaces its default for plain features.
require "lunar._effects"
local lunar, hooks, effect = base.lunarTable, base.hooks, base.effect
local describe, isFeature, definedAt = base.describe, base.isFeature, base.definedAt
local copyState = base.copyState
-- NB: the body's C loop looks descriptions up itself, and knows fx.none's without calling back.
local descriptions = base.descriptions
local internals = host.internals
local realOf = internals.realOf
-- NB: a C check (journal.c): one call where `type` and `rawget` would take two or three.
local isAction = internals.isAction
local bodyRunner, routingWhere = internals.body, internals.routingWhere

local type, rawget, error, pairs, setmetatable, tostring =
  type, rawget, error, pairs, setmetatable, tostring
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
  if child.sharedFields ~= nil then
    -- NB: only the feature a store runs syncs its shared fields; a child's would silently never sync.
    error(what .. "(" .. describe(key) .. ", …): " .. child.name .. " declares `shared` state, which only " ..
      "the feature a store runs can do: declare it there and hand the child what it needs", 3)
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
    error("lunar.stack(" .. describe(key) .. ", …) expects its destinations by name, like { detail = Detail }, " ..
      "got " .. describe(destinations), 2)
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
-- The instance whose call runs (its stack ids), in slot 1: the body's C loop (routing.c) sets it.
local running = { { nextID = 0 } }
local stacks = setmetatable({}, { __mode = "k" })      -- a stack's array -> its entry

-- For a composed reducer: a new instance's data (which the routing makes current when the host's
-- call passes it) and the routing itself (`reduce` without its budget switch, which the host's
-- call does instead). Nil for a plain one.
host.enterInstance = function(reduce)
  local run = composedReducers[reduce]
  if run == nil then return nil end
  return { nextID = 0 }, run
end

--- lunar.push(state.path, "detail" [, childState]) -> id: pushes a stack entry; the id is new.
function lunar.push(list, screen, childState)
  local real = realOf(list)
  if real == nil then
    error("lunar.push expects a stack of the state, as in lunar.push(state.path, \"detail\", {…}), got " ..
      describe(list), 2)
  end
  if type(screen) ~= "string" then
    error("lunar.push expects the name of a destination, got " .. describe(screen), 2)
  end
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
  local current = running[1]
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
-- Failing, and what the other parts share

local function fail(name, message)
  -- NB: the host names the root feature; a child's name is added only for a child. The error
  --     names the author's feature (where its body's reducer is), never this file.
  -- NB: how deep in composed features the call is, and the `file:line` of the innermost one
  --     (its first reducer), read off the call stack (routing.c).
  local depth, failAt = routingWhere()
  if depth > 1 then message = message .. " (in " .. name .. ")" end
  error(failAt ~= nil and (failAt .. ": " .. message) or message, 0)
end

local function showID(id)
  return type(id) == "number" and tostring(id) or describe(id)
end

-- NB: filled in by lunar/_compose/routing.lua and lunar/_compose/removal.lua, loaded next; read by
--     `hooks.compose` below, which runs only once a script defines a feature.
local compose = { fail = fail, showID = showID }

---------------------------------------------------------------------------------------------------
-- A body becomes a reducer

function hooks.compose(feature, level)
  local childAction, childEffect, elementOf, route, applyDismissals =
    compose.childAction, compose.childEffect, compose.elementOf, compose.route, compose.applyDismissals
  local touches, checkElements, checkPresented = compose.touches, compose.checkElements, compose.checkPresented
  local indexes = compose.indexes
  local name, body = feature.name, feature.body
  if type(body) ~= "table" or entries[body] then
    error("feature " .. name .. ": `body` must be a list like " ..
      "{ lunar.forEach(\"todos\", Todo), lunar.reduce(fn) }, got " .. describe(body), level + 1)
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
  -- NB: errors name the feature's own reducer; one without is named by its name alone.
  local ownOrigin = nil
  for i = 1, n do
    if ownOrigin == nil and list[i].kind == "reduce" then ownOrigin = list[i].origin end
  end
  -- The body's loop is C (routing.c): it calls back here for what it does not do itself.
  local keyOf, reducerOf, rowPaths = {}, {}, {}
  for i = 1, n do
    local e = list[i]
    keyOf[i] = e.kind ~= "reduce" and e.key
    reducerOf[i] = e.kind == "reduce" and e.fn or (e.child ~= nil and e.child.reduce)
    rowPaths[i] = e.kind == "forEach" and e.paths
  end
  -- What lunar.reduce returned when it is not fx.none: the effect, or nil for another `none`.
  local function settle(i, result, description)
    if description == nil then
      fail(name, "lunar.reduce (" .. list[i].origin .. ") returned " .. describe(result) ..
        "; return an effect from lunar.fx (or nothing)")
    end
    if description.kind == "none" then return nil end
    return result
  end
  -- A row the C side did not find (not at the root, or not in the cache): found, or explained.
  local function find(i, state, proxied, action, atRoot)
    local e = list[i]
    local sub = rawget(action, "action")
    if not isAction(sub) then childAction(name, e, action) end
    local id, element = elementOf(name, e, state, proxied, action, atRoot)
    return sub, id, element
  end
  local function wrap(i, result, id)
    local e = list[i]
    return childEffect(result, e.child, e.key, id, id, "forEach")
  end
  local function other(i, state, real, action, deps, dismissals)
    return route(name, list[i], state, real, action, deps, dismissals)
  end
  local function enter(real)
    for s = 1, stackCount do
      local items = rawget(real, stackEntries[s].key)
      if type(items) == "table" then stacks[items] = stackEntries[s] end
    end
  end
  local function check(real, effects, count)
    if touches(real, containers, containerCount) then
      for c = 1, containerCount do
        local e = containers[c]
        if e.kind == "ifLet" then
          effects, count = checkPresented(name, e, real, effects, count)
        else
          effects, count = checkElements(name, e, real, effects, count)
        end
      end
    end
    return effects, count
  end
  local function merge(effects)
    return effect { kind = "merge", effects = effects }
  end
  -- run(state, action, deps [, root, instance]): the body for one action (routing.c). `root` is
  -- the state table behind `state` when the host's call passes it (a store's own feature), with
  -- `instance`, made current; a parent's routing passes neither.
  local run = bodyRunner(keyOf, reducerOf, rowPaths, indexes, descriptions, base.fx.none, running, ownOrigin,
    settle, find, wrap, other, stackCount > 0 and enter, applyDismissals, containerCount > 0 and check, merge)

  -- NB: the routing above runs with the budget as it finds it (on, in a reducer): it is C, which
  --     the budget never counts, and it pauses the budget around the prelude's Lua it calls back.
  local function reduce(state, action, deps)
    -- NB: a script may call it itself: its mistake is named at its own line.
    if type(action) ~= "table" then
      error(name .. ".reduce expects an action table like { type = \"increment\" }, got " .. describe(action), 2)
    end
    local result = run(state, action, deps)
    return result
  end

  composedReducers[reduce] = run
  return reduce, origin or name
end

return compose
