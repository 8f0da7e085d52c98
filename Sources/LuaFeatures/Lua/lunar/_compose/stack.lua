-- `lunar._compose.stack`, Composable's StackReducer: `lunar.stack("path", { detail = Detail, … })`
-- runs, for an action naming an entry's id, the destination named by the entry's `screen`;
-- `lunar.push` appends an entry with a new id, as does the stack action `{ type = "path", action =
-- { type = "push", screen = …, state = … } }` (a test's, the prompt's); `popFrom` pops. Stack ids
-- come from a counter per feature instance, kept here and made current by the body's C loop when
-- the host's bound call passes it; they start
-- at 0 and are never reused (not even those of an action that was rolled back). Entries are found
-- and checked as a forEach list's elements are (lunar/_compose/forEach.lua).
local base = require "lunar._base"
local host = require "lunar._host"
local body = require "lunar._compose.body"
local forEach = require "lunar._compose.forEach"
local lunar, describe, isFeature, copyState = base.lunarTable, base.describe, base.isFeature, base.copyState
local internals = host.internals
local realOf, user = internals.realOf, internals.user
local entry, checkKey, checkChild = body.entry, body.checkKey, body.checkChild
local fail, showID, childAction, childEffect = body.fail, body.showID, body.childAction, body.childEffect
local elementOf, indexOf = forEach.elementOf, forEach.indexOf

local type, rawget, rawequal, rawlen, error, pairs, setmetatable =
  type, rawget, rawequal, rawlen, error, pairs, setmetatable
local mathtype = math.type

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

-- The instance whose call runs (its stack ids), in slot 1: the body's C loop (routing.c) sets it.
local running = { { nextID = 0 } }
local stacks = setmetatable({}, { __mode = "k" })      -- a stack's array -> its entry

-- The id the next push gets: the instance's counter, moved past the ids on the stack.
local function nextID(real)
  local id = running[1].nextID
  for i = 1, rawlen(real) do
    local element = rawget(real, i)
    local other = type(element) == "table" and rawget(element, "id") or nil
    if mathtype(other) == "integer" and other >= id then id = other + 1 end
  end
  return id
end

-- Appends the entry `id` (which nextID gave) to `list` (the stack, a proxy or a plain table).
local function append(list, id, screen, childState)
  running[1].nextID = id + 1
  local n = #list + 1
  list[n] = { id = id, screen = screen }
  -- NB: assigned on its own, so that a proxy (`state.somewhere`) is stored as a copy.
  list[n].state = childState
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
    if type(destination.initial) == "function" then
      error("lunar.push: " .. destination.name .. "'s initial state is built with deps: pass it, as in " ..
        "lunar.push(state." .. stack.key .. ", " .. describe(screen) .. ", " .. destination.name ..
        ":initialWith({}, deps))", 2)
    end
    childState = copyState(destination.initial, 0)
  elseif type(childState) ~= "table" then
    error("lunar.push: the state of " .. describe(screen) .. " must be a table, got " .. describe(childState), 2)
  end
  local id = nextID(real)
  append(list, id, screen, childState)
  return id
end

-- NB: routing runs outside the budget (the body's C loop pauses it around this file's Lua), so it
--     must never run a script's code: every read of a table that state or an action holds is raw
--     (a script can plant metatables with __index, __len or __eq on its own tables), and ids are
--     compared with rawequal.

-- Runs the destination of the entry `action` names, or records its dismissal; returns its
-- (wrapped) effect and the dismissals so far.
-- A stack action (no `id` beside it), TCA's StackAction: `push` appends an entry with the next id
-- before the parent's reducers run; `popFrom` pops an entry and those above it after they ran.
local function stackAction(name, e, state, real, sub, dismissals)
  local key, kind = e.key, rawget(sub, "type")
  local plain = rawequal(state, real)
  local list = plain and rawget(real, key) or state[key]
  local items = type(list) == "table" and (realOf(list) or list) or nil
  if items == nil then
    fail(name, "state." .. key .. " is " .. describe(list) .. ", but lunar.stack(" .. describe(key) ..
      ") needs an array there")
  end
  if kind == "popFrom" then
    local id = rawget(sub, "id")
    if id == nil or indexOf(items, id) == nil then
      fail(name, "popFrom: no entry with id " .. showID(id) .. " in state." .. key ..
        " (it was popped already, or the action names the wrong id)")
    end
    dismissals = dismissals or {}
    dismissals[#dismissals + 1] = e
    dismissals[#dismissals + 1] = id
    return nil, dismissals
  end
  if kind ~= "push" then
    fail(name, "an action for lunar.stack(" .. describe(key) .. ") without an `id` is a stack action, " ..
      "{ type = \"push\", screen = …, state = {…} } or { type = \"popFrom\", id = … }; got type = " .. describe(kind) ..
      " (an entry's own action names its entry: { type = " .. describe(key) .. ", id = …, action = {…} })")
  end
  for field in pairs(sub) do
    if field ~= "type" and field ~= "id" and field ~= "screen" and field ~= "state" then
      fail(name, "push: a push is { type = \"push\", screen = …, state = {…} } (and an optional id), " ..
        "with no field " .. describe(field))
    end
  end
  local screen = rawget(sub, "screen")
  local destination = e.destinations[screen]
  if destination == nil then
    fail(name, "push: " .. describe(screen) .. " is not a destination of lunar.stack(" .. describe(key) ..
      ") (destinations: " .. e.names .. ")")
  end
  local childState = rawget(sub, "state")
  if childState == nil then
    childState = copyState(destination.initial, 0)
  elseif type(childState) ~= "table" then
    fail(name, "push: the state of " .. describe(screen) .. " must be a table, got " .. describe(childState))
  else
    -- NB: a copy, so that the action a caller keeps is not a part of the state.
    childState = copyState(childState, 0)
  end
  local id, asked = nextID(items), rawget(sub, "id")
  if asked ~= nil and not rawequal(asked, id) then
    fail(name, "push: the id " .. showID(asked) .. " is not the next id of state." .. key .. ", " .. showID(id) ..
      " (stack ids are given in order and never reused; leave `id` out to get the next)")
  end
  append(list, id, screen, childState)
  return nil, dismissals
end

local function route(name, e, state, real, action, deps, dismissals)
  local key = e.key
  local sub = childAction(name, e, action)
  if rawget(action, "id") == nil then return stackAction(name, e, state, real, sub, dismissals) end
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

return { route = route, running = running, stacks = stacks }
