-- Composition, part three (after lunar/_compose/routing.lua): finding, from the journal, the children
-- an action removed (their effects are cancelled), and checking the containers it touched.
local base = require "lunar._base"
local host = require "lunar._host"
local compose = require "lunar._compose"
local describe, effect = base.describe, base.effect
local internals = host.internals
local journal, journalLength, layout = internals.journal, internals.journalLength, internals.layout
-- NB: a forEach list's ids as its last check left them (`derived[items] = { n = length, ids = {
--     [id] = true } }`); C empties `derived` when writes are undone or were never checked.
local derived = internals.derived
-- NB: the journal's layout is the transaction's (CLuaTransaction.h), handed over at setup.
local STRIDE, TABLE, KEY, OLD, PATH = layout.STRIDE, layout.TABLE, layout.KEY, layout.OLD, layout.PATH
local fail, showID = compose.fail, compose.showID

local type, rawget, rawequal, rawlen, next = type, rawget, rawequal, rawlen, next
local mathtype = math.type

local function addID(ids, element)
  if type(element) ~= "table" then return ids end
  local id = rawget(element, "id")
  if id == nil or not rawequal(id, id) then return ids end
  ids = ids or {}
  ids[id] = true
  return ids
end

-- The ids of the elements state[key] held before this action and that were written over; whether
-- it was touched at all.
local function previousIDs(real, key, items)
  local n = journalLength()
  local touched, ids, replaced = false, nil, nil
  for i = 1, n, STRIDE do
    local t = journal[i + TABLE]
    if rawequal(t, items) then
      touched = true
      ids = addID(ids, journal[i + OLD])
    elseif rawequal(t, real) and rawequal(journal[i + KEY], key) then
      touched = true
      local old = journal[i + OLD]
      if type(old) == "table" and not rawequal(old, items) then
        replaced = replaced or {}
        replaced[old] = true
        for j = 1, rawlen(old) do ids = addID(ids, rawget(old, j)) end
      end
    end
  end
  if replaced ~= nil then
    for i = 1, n, STRIDE do
      if replaced[journal[i + TABLE]] then ids = addID(ids, journal[i + OLD]) end
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

-- The id of the element at i of a forEach list, checked (a table with a usable `id`).
local function elementID(name, key, i, element)
  if type(element) ~= "table" then
    fail(name, "state." .. key .. "[" .. i .. "] is " .. describe(element) .. ", not a child state (a table)")
  end
  local id = rawget(element, "id")
  if (type(id) ~= "string" and type(id) ~= "number") or id ~= id then
    fail(name, "state." .. key .. "[" .. i .. "] needs an `id` (a string or number) for lunar.forEach(" ..
      describe(key) .. "), got " .. describe(id))
  end
  return id
end

local function duplicate(name, key, id)
  fail(name, "two elements of state." .. key .. " have the id " .. showID(id))
end

-- What this action did to the list state[key] (`items`): whether it touched it; the slots it
-- wrote, in the order first written, and what each held before (`first[slot]`, NOTHING for an
-- empty slot), or no slots when it must be checked whole (it replaced the list, or rewrote an
-- element's `id`).
local NOTHING = {}
local function changedSlots(real, key, items)
  local touched, whole, slots, first = false, false, nil, nil
  for i = 1, journalLength(), STRIDE do
    local t, k = journal[i + TABLE], journal[i + KEY]
    if rawequal(t, items) then
      touched = true
      if first == nil then slots, first = {}, {} end
      if first[k] == nil then
        local old = journal[i + OLD]
        if old == nil then old = NOTHING end
        first[k] = old
        slots[#slots + 1] = k
      end
    elseif rawequal(t, real) then
      if rawequal(k, key) then touched, whole = true, true end
    elseif k == "id" then
      -- NB: an element's path ends with the list's key and its index.
      local path = journal[i + PATH]
      local n = rawlen(path)
      if n >= 2 and rawequal(rawget(path, n - 1), key) then touched, whole = true, true end
    end
  end
  if whole then return touched, nil, nil end
  return touched, slots, first
end

-- Checks only the slots of a forEach list that the action wrote, against its ids as the last check
-- left them (`known`), and updates them; cancels the effects of the ids gone. False when the
-- change is not one it can check (holes, keys that are not indexes): the caller checks in full.
local function checkSlots(name, e, items, known, slots, first, effects, count)
  local key, ids, before, n = e.key, known.ids, known.n, rawlen(items)
  for i = n + 1, before do
    if first[i] == nil or rawget(items, i) ~= nil then return false end
  end
  for s = 1, #slots do
    local i = slots[s]
    if mathtype(i) ~= "integer" or i < 1 or (i > before and first[i] ~= NOTHING) then return false end
  end
  local gone = nil
  for s = 1, #slots do
    local old = first[slots[s]]
    if old ~= NOTHING then
      local id = rawget(old, "id")
      ids[id] = nil
      gone = gone or {}
      gone[#gone + 1] = id
    end
  end
  for s = 1, #slots do
    local i = slots[s]
    if i <= n then
      local id = elementID(name, key, i, rawget(items, i))
      if ids[id] then duplicate(name, key, id) end
      ids[id] = true
    end
  end
  known.n = n
  if gone ~= nil then
    for g = 1, #gone do
      if not ids[gone[g]] then effects, count = cancelChild(effects, count, key, gone[g]) end
    end
  end
  return true, effects, count
end

-- The ids of the elements whose `id` the action rewrote, before it did.
local function rewrittenIDs(key, ids)
  for i = 1, journalLength(), STRIDE do
    if journal[i + KEY] == "id" then
      local path = journal[i + PATH]
      local n = rawlen(path)
      if n >= 2 and rawequal(rawget(path, n - 1), key) then
        ids = ids or {}
        ids[journal[i + OLD]] = true
      end
    end
  end
  return ids
end

-- Checks a touched array of children whole and cancels the effects of those no longer in it; keeps
-- a forEach list's ids for the next action's `checkSlots`.
local function checkAll(name, e, real, items, effects, count)
  local key = e.key
  local _, ids = previousIDs(real, key, items)
  if e.kind == "forEach" then ids = rewrittenIDs(key, ids) end
  local seen = {}
  -- NB: the element's location is spelled only when it fails: building it for every element made
  -- adding a row to a list of 1,000 cost 18 times what a Redux-style store in plain Lua pays.
  local function at(i) return "state." .. key .. "[" .. i .. "]" end
  local stack = e.kind == "stack"
  local n = items and rawlen(items) or 0
  for i = 1, n do
    local element = rawget(items, i)
    local id
    if stack then
      if type(element) ~= "table" then
        fail(name, at(i) .. " is " .. describe(element) .. ", not a child state (a table)")
      end
      id = rawget(element, "id")
      if mathtype(id) ~= "integer" then
        fail(name, at(i) .. " has no stack id (push entries with lunar.push(state." .. key .. ", screen, state))")
      end
      local screen = rawget(element, "screen")
      if e.destinations[screen] == nil then
        fail(name, at(i) .. " goes to " .. describe(screen) .. ", which is not a destination of lunar.stack(" ..
          describe(key) .. ") (destinations: " .. e.names .. ")")
      end
      if type(rawget(element, "state")) ~= "table" then
        fail(name, at(i) .. ".state must be the state of " .. describe(screen) .. " (a table), got " ..
          describe(rawget(element, "state")))
      end
    else
      id = elementID(name, key, i, element)
    end
    if seen[id] then duplicate(name, key, id) end
    -- NB: a table id is kept by identity: no __eq of a script's is ever called.
    seen[id] = true
  end
  -- NB: a stack is checked whole each time (it is as deep as the navigation); a list keeps its ids.
  if not stack and items ~= nil then derived[items] = { n = n, ids = seen } end
  if ids ~= nil then
    for id in next, ids do
      if not seen[id] then effects, count = cancelChild(effects, count, key, id) end
    end
  end
  return effects, count
end

-- Checks a touched array of children and cancels the effects of those no longer in it. A forEach
-- list the last action left checked is checked again only at the slots this one wrote: adding a
-- row to a list of 10,000 costs what adding one to a list of 10 does.
local function checkElements(name, e, real, effects, count)
  local key = e.key
  local items = rawget(real, key)
  local touched, slots, first = changedSlots(real, key, items)
  if not touched then return effects, count end
  if items ~= nil and type(items) ~= "table" then
    fail(name, "state." .. key .. " must be an array of child states, got " .. describe(items))
  end
  local known = slots ~= nil and e.kind == "forEach" and derived[items] or nil
  if known then
    local checked
    checked, effects, count = checkSlots(name, e, items, known, slots, first, effects, count)
    if checked then return effects, count end
  end
  return checkAll(name, e, real, items, effects, count)
end
-- Cancels the effects of a presented child that went away or was replaced by another identity.
local function checkPresented(name, e, real, effects, count)
  local key = e.key
  for i = 1, journalLength(), STRIDE do
    if rawequal(journal[i + TABLE], real) and rawequal(journal[i + KEY], key) then
      local before, now = journal[i + OLD], rawget(real, key)
      if now ~= nil and type(now) ~= "table" then
        fail(name, "state." .. key .. " must be the state of a presented child (a table) or nil, got " .. describe(now))
      end
      if type(before) == "table" and not rawequal(before, now) then
        local identity = rawget(before, "id")
        if now == nil or not rawequal(rawget(now, "id"), identity) then
          effects, count = cancelChild(effects, count, key, identity)
        end
      end
      return effects, count
    end
  end
  return effects, count
end

-- Whether this action wrote to `real` itself or to one of its containers, or rewrote an `id`: only
-- then can a child have gone (a write inside a child cannot remove it, but its `id` is who it is).
local function touches(real, containers, containerCount)
  for i = 1, journalLength(), STRIDE do
    local t = journal[i + TABLE]
    if rawequal(t, real) or journal[i + KEY] == "id" then return true end
    for c = 1, containerCount do
      if rawequal(t, rawget(real, containers[c].key)) then return true end
    end
  end
  return false
end

compose.touches = touches
compose.checkElements = checkElements
compose.checkPresented = checkPresented
