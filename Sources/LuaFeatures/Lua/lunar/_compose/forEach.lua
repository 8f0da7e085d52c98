-- `lunar._compose.forEach`, Composable's ForEach: `lunar.forEach("todos", Todo)` runs Todo on the
-- element of state.todos whose `id` an action names (`{ type = "todos", id = 3, action = … }`).
-- The body's C loop (routing.c) routes a row's action itself through the cache of ids below;
-- this file finds an element it has no cache for, and checks a list after an action touched it:
-- elements are tables with ids, none twice, and the effects of the rows gone are cancelled. A
-- stack (lunar/_compose/stack.lua) is an array of elements by id too: it uses the same lookup and
-- checks.
local base = require "lunar._base"
local host = require "lunar._host"
local body = require "lunar._compose.body"
local removal = require "lunar._compose.removal"
local lunar, describe = base.lunarTable, base.describe
local internals = host.internals
local journal, journalLength, layout = internals.journal, internals.journalLength, internals.layout
-- NB: the journal's layout is the transaction's (CLuaTransaction.h), handed over at setup.
local STRIDE, TABLE, KEY, OLD, PATH = layout.STRIDE, layout.TABLE, layout.KEY, layout.OLD, layout.PATH
local childProxy, realOf, pathOf = internals.childProxy, internals.realOf, internals.pathOf
-- NB: a C check (journal.c): one call where `type` and `rawget` would take two or three.
local hasID = internals.hasID
-- NB: a forEach list's ids as its last check left them (`derived[items] = { n = length, ids = {
--     [id] = true } }`); C empties `derived` when writes are undone or were never checked.
local derived = internals.derived
local entry, checkKey, checkChild, fail, showID = body.entry, body.checkKey, body.checkChild, body.fail, body.showID
local previousIDs, cancelChild = removal.previousIDs, removal.cancelChild

local type, rawget, rawequal, rawlen, setmetatable, next = type, rawget, rawequal, rawlen, setmetatable, next
local mathtype = math.type

--- lunar.forEach("todos", Todo): Todo runs on each element of state.todos, found by its `id`.
function lunar.forEach(key, child)
  checkKey("lunar.forEach", key)
  checkChild("lunar.forEach", key, child)
  return entry { kind = "forEach", key = key, child = child, paths = {} }
end

---------------------------------------------------------------------------------------------------
-- Finding an element by id

local indexes = setmetatable({}, { __mode = "k" })    -- array -> { [id] = index }

-- NB: routing runs outside the budget (the body's C loop pauses it around this file's Lua), so it
--     must never run a script's code: every read of a table that state or an action holds is raw
--     (a script can plant metatables with __index, __len or __eq on its own tables), and ids are
--     compared with rawequal.

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

---------------------------------------------------------------------------------------------------
-- Checking a list an action touched

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

return {
  indexes = indexes,
  indexOf = indexOf,
  elementOf = elementOf,
  checkElements = checkElements,
}
