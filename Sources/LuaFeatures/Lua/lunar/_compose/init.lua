-- `lunar._compose`: composition, the reducer a feature's `body` becomes. Each entry of a body is an
-- operator of its own file, named after Composable's: `lunar.scope` (scope.lua), `lunar.forEach`
-- (forEach.lua), `lunar.ifLet` (ifLet.lua), `lunar.stack` and `lunar.push` (stack.lua),
-- `lunar.destination` (destination.lua), `lunar.alert` and `lunar.confirmationDialog` (alert.lua),
-- `lunar.binding` (binding.lua), `lunar.reduce` (reduce.lua); dismissal (dismiss.lua) and
-- cancellation on removal (removal.lua)
-- are shared by the containers, and body.lua by all. The loop over a body's entries for each
-- action is C (CLuaTransaction's routing.c): it runs the reducers, finds a list's row through
-- forEach.lua's cache, collects the effects, and calls back here for everything else (the other
-- children, an element it has no cache for, wrapping an effect, every error and its message).
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
--   back. A forEach list keeps its ids from one check to the next (lunar/_compose/forEach.lua), so
--   only the rows an action wrote are checked again.
-- - `forEach` and `stack` find an element by id through a cache (id → index) per array, checked
--   on use and rebuilt when stale: addressing the 500th of 1,000 rows does not scan them.
-- - Stack ids come from a counter per feature instance (lunar/_compose/stack.lua).
local base = require "lunar._base"
local host = require "lunar._host"
-- NB: after it: `host.enterInstance` below replaces its default for plain features.
require "lunar._effects"
local shared = require "lunar._compose.body"
local scope = require "lunar._compose.scope"
local forEach = require "lunar._compose.forEach"
local ifLet = require "lunar._compose.ifLet"
local destination = require "lunar._compose.destination"
local binding = require "lunar._compose.binding"
local stack = require "lunar._compose.stack"
local applyDismissals = require "lunar._compose.dismiss"
local removal = require "lunar._compose.removal"
require "lunar._compose.reduce"
local hooks, effect, describe = base.hooks, base.effect, base.describe
-- NB: the body's C loop looks descriptions up itself, and knows fx.none's without calling back.
local descriptions = base.descriptions
local internals = host.internals
-- NB: a C check (journal.c): one call where `type` and `rawget` would take two or three.
local isAction = internals.isAction
local bodyRunner = internals.body
local entries, fail, childAction, childEffect = shared.entries, shared.fail, shared.childAction, shared.childEffect
local indexes, elementOf, checkElements = forEach.indexes, forEach.elementOf, forEach.checkElements
local checkPresented, touches = ifLet.checkPresented, removal.touches
local running, stacks = stack.running, stack.stacks
-- How the body routes an action to a child that is not a list's row (those are the C loop's).
local routes = {
  scope = scope.route, ifLet = ifLet.route, stack = stack.route,
  destination = destination.route, binding = binding.route,
}
local checkDestination = destination.check

local type, rawget, error, pairs, setmetatable = type, rawget, error, pairs, setmetatable

---------------------------------------------------------------------------------------------------
-- Instances

local composedReducers = setmetatable({}, { __mode = "k" })

-- For a composed reducer: a new instance's data (which the routing makes current when the host's
-- call passes it) and the routing itself (`reduce` without its budget switch, which the host's
-- call does instead). Nil for a plain one.
host.enterInstance = function(reduce)
  local run = composedReducers[reduce]
  if run == nil then return nil end
  return { nextID = 0 }, run
end

---------------------------------------------------------------------------------------------------
-- A body becomes a reducer

function hooks.compose(feature, level)
  local name, body = feature.name, feature.body
  if type(body) ~= "table" or entries[body] then
    error("feature " .. name .. ": `body` must be a list like " ..
      "{ lunar.forEach(\"todos\", Todo), lunar.reduce(fn) }, got " .. describe(body), level + 1)
  end
  local list, containers, stackEntries, keys, size = {}, {}, {}, {}, 0
  for _ in pairs(body) do size = size + 1 end
  if size == 0 or size ~= #body then
    error("feature " .. name .. ": `body` must be a non-empty list of lunar.scope, lunar.forEach, lunar.ifLet, " ..
      "lunar.stack, lunar.destination, lunar.binding and lunar.reduce", level + 1)
  end
  local origin = nil
  for i = 1, #body do
    local e = body[i]
    if not entries[e] then
      error("feature " .. name .. ": body[" .. i .. "] is " .. describe(e) ..
        "; expected lunar.scope, lunar.forEach, lunar.ifLet, lunar.stack, lunar.destination, lunar.binding or " ..
        "lunar.reduce", level + 1)
    end
    list[i] = e
    if e.kind == "reduce" then
      origin = origin or e.origin
    else
      if keys[e.key] then
        error("feature " .. name .. ": two children of the body use state." .. e.key, level + 1)
      end
      keys[e.key] = true
      if e.kind ~= "scope" and e.kind ~= "binding" then containers[#containers + 1] = e end
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
  local keyOf, reducerOf, rowPaths, routeOf = {}, {}, {}, {}
  for i = 1, n do
    local e = list[i]
    keyOf[i] = e.kind ~= "reduce" and e.key
    reducerOf[i] = e.kind == "reduce" and e.fn or (e.child ~= nil and e.child.reduce)
    rowPaths[i] = e.kind == "forEach" and e.paths
    routeOf[i] = routes[e.kind]
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
    return routeOf[i](name, list[i], state, real, action, deps, dismissals)
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
        local kind = e.kind
        if kind == "ifLet" then
          effects, count = checkPresented(name, e, real, effects, count)
        elseif kind == "destination" then
          effects, count = checkDestination(name, e, real, effects, count)
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
