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
/// - Stack ids come from a counter per feature instance, kept here and made current by the
///   routing when the host's bound call passes it; they start at 0 and are never reused (not even
///   those of an action that was rolled back).
enum LunarCompositionSource {
  static let chunkName = "lunar_compose.lua"

  /// The chunk: the body entries and `lunar.push` (here), running a body's children
  /// (``routing``), and finding removed children and making the reducer (``composing``).
  static let source = declarations + "\n" + routing + "\n" + composing

  static let declarations = #"""
-- Composition declared in a feature's `body`, run inside the host's journaled reducer call.
local base, host = ...
local lunar, hooks, effect = base.lunarTable, base.hooks, base.effect
local describe, isFeature, isEffect, descriptionOf, definedAt =
  base.describe, base.isFeature, base.isEffect, base.descriptionOf, base.definedAt
local internals = host.internals
local REAL, PATH, childProxy, realOf = internals.REAL, internals.PATH, internals.childProxy, internals.realOf
local journal, st, COUNT = internals.journal, internals.st, internals.COUNT
-- NB: C checks (journal.c): one call each where `type` and `rawget` would take two or three.
local isAction, hasID = internals.isAction, internals.hasID
local untimed, timed, user = internals.untimed, internals.timed, internals.user

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

-- For a composed reducer: a new instance's data (which the routing makes current when the host's
-- call passes it) and the routing itself (`reduce` without its budget switch, which the host's
-- call does instead). Nil for a plain one.
host.enterInstance = function(reduce)
  local run = composedReducers[reduce]
  if run == nil then return nil end
  return { nextID = 0 }, run
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
  local real = realOf(list)
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
"""#
}
