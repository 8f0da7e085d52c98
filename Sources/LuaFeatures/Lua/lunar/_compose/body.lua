-- `lunar._compose.body`: what every operator of a feature's `body` shares — the marks of body
-- entries and their checks, failing with the author's feature named, and wrapping a child's action
-- and effect. The operators, one file each, mirror Composable's: scope.lua (Scope), forEach.lua
-- (ForEach), ifLet.lua (IfLet, presentation), stack.lua (StackReducer), dismiss.lua (dismissal),
-- removal.lua (cancellation of a removed child's effects), reduce.lua (Reduce); init.lua turns a
-- body into one reducer.
local base = require "lunar._base"
local host = require "lunar._host"
local describe, isFeature, descriptionOf, effect = base.describe, base.isFeature, base.descriptionOf, base.effect
local internals = host.internals
-- NB: a C check (journal.c): one call where `type` and `rawget` would take two or three.
local isAction = internals.isAction
local routingWhere = internals.routingWhere

local type, rawget, error, setmetatable, tostring = type, rawget, error, setmetatable, tostring

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
end

---------------------------------------------------------------------------------------------------
-- Failing

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

---------------------------------------------------------------------------------------------------
-- A child's action and effect

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

return {
  entries = entries,
  entry = entry,
  checkKey = checkKey,
  checkChild = checkChild,
  fail = fail,
  showID = showID,
  childAction = childAction,
  childEffect = childEffect,
}
