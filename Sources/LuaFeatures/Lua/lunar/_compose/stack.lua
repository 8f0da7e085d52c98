-- `lunar._compose.stack`, Composable's StackReducer: `lunar.stack("path", { detail = Detail, … })`
-- runs, for an action naming an entry's id, the destination named by the entry's `screen`;
-- `lunar.push` appends an entry with a new id. Stack ids come from a counter per feature instance,
-- kept here and made current by the body's C loop when the host's bound call passes it; they start
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
local elementOf = forEach.elementOf

local type, rawget, rawequal, error, pairs, setmetatable = type, rawget, rawequal, error, pairs, setmetatable
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

-- NB: routing runs outside the budget (the body's C loop pauses it around this file's Lua), so it
--     must never run a script's code: every read of a table that state or an action holds is raw
--     (a script can plant metatables with __index, __len or __eq on its own tables), and ids are
--     compared with rawequal.

-- Runs the destination of the entry `action` names, or records its dismissal; returns its
-- (wrapped) effect and the dismissals so far.
local function route(name, e, state, real, action, deps, dismissals)
  local key = e.key
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

return { route = route, running = running, stacks = stacks }
