-- Composition, part three (after lunar/compose_routing.lua): finding, from the journal, the children
-- an action removed (their effects are cancelled), and checking the containers it touched.
local base, host, compose = ...
local describe, effect = base.describe, base.effect
local internals = host.internals
local journal, journalLength, layout = internals.journal, internals.journalLength, internals.layout
-- NB: the journal's layout is the transaction's (CLuaTransaction.h), handed over at setup.
local STRIDE, TABLE, KEY, OLD = layout.STRIDE, layout.TABLE, layout.KEY, layout.OLD
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
  -- NB: the element's location is spelled only when it fails: building it for every element made
  -- adding a row to a list of 1,000 cost 18 times what a Redux-style store in plain Lua pays.
  local function at(i) return "state." .. key .. "[" .. i .. "]" end
  local stack = e.kind == "stack"
  for i = 1, items and rawlen(items) or 0 do
    local element = rawget(items, i)
    if type(element) ~= "table" then
      fail(name, at(i) .. " is " .. describe(element) .. ", not a child state (a table)")
    end
    local id = rawget(element, "id")
    if stack then
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
    elseif (type(id) ~= "string" and type(id) ~= "number") or id ~= id then
      fail(name, at(i) .. " needs an `id` (a string or number) for lunar.forEach(" .. describe(key) .. "), got " ..
        describe(id))
    end
    if seen[id] then fail(name, "two elements of state." .. key .. " have the id " .. showID(id)) end
    -- NB: a table id is kept by identity: no __eq of a script's is ever called.
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

-- Whether this action wrote to `real` itself or to one of its containers: only then can a child
-- have gone (a write inside a child cannot remove it).
local function touches(real, containers, containerCount)
  for i = 1, journalLength(), STRIDE do
    local t = journal[i + TABLE]
    if rawequal(t, real) then return true end
    for c = 1, containerCount do
      if rawequal(t, rawget(real, containers[c].key)) then return true end
    end
  end
  return false
end

compose.touches = touches
compose.checkElements = checkElements
compose.checkPresented = checkPresented
