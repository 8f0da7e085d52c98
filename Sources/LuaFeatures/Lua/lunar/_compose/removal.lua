-- `lunar._compose.removal`: a child removed by an action has its effects cancelled, as Composable's
-- ForEach, IfLet and StackReducer do. Removal is found from the journal after the body ran: only an
-- action that touched a container (`touches`) can have removed a child; then forEach.lua and
-- ifLet.lua compare the ids before (the journal's old values) with the ids now there, and each id
-- gone becomes a `cancelChild` effect, which Swift turns into `Effect.cancel(scope:)`.
local base = require "lunar._base"
local host = require "lunar._host"
local effect = base.effect
local internals = host.internals
local journal, journalLength, layout = internals.journal, internals.journalLength, internals.layout
-- NB: the journal's layout is the transaction's (CLuaTransaction.h), handed over at setup.
local STRIDE, TABLE, KEY, OLD = layout.STRIDE, layout.TABLE, layout.KEY, layout.OLD

local type, rawget, rawequal, rawlen = type, rawget, rawequal, rawlen

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

-- A `cancelChild` effect for the child `identity` of state[key], appended to `effects`.
local function cancelChild(effects, count, key, identity)
  count = count + 1
  effects = effects or {}
  effects[count] = effect { kind = "cancelChild", key = key, identity = identity }
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

return {
  previousIDs = previousIDs,
  cancelChild = cancelChild,
  touches = touches,
}
