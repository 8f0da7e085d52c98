-- `lunar._compose.scope`, Composable's Scope: `lunar.scope("counter", Counter)` runs Counter on
-- state.counter for the actions addressed to it.
local base = require "lunar._base"
local host = require "lunar._host"
local body = require "lunar._compose.body"
local lunar, describe = base.lunarTable, base.describe
local user = host.internals.user
local entry, checkKey, checkChild = body.entry, body.checkKey, body.checkChild
local fail, childAction, childEffect = body.fail, body.childAction, body.childEffect

local type, rawget, rawequal = type, rawget, rawequal

--- lunar.scope("counter", Counter): Counter runs on state.counter.
function lunar.scope(key, child)
  checkKey("lunar.scope", key)
  checkChild("lunar.scope", key, child)
  return entry { kind = "scope", key = key, child = child }
end

-- NB: routing runs outside the budget (the body's C loop pauses it around this file's Lua), so it
--     must never run a script's code: every read of a table that state or an action holds is raw
--     (a script can plant metatables with __index, __len or __eq on its own tables), and ids are
--     compared with rawequal.

-- Runs the child for `action`; returns its (wrapped) effect and the dismissals so far.
local function route(name, e, state, real, action, deps, dismissals)
  local key = e.key
  -- NB: `state` is `real` itself, or a proxy (whose reads are the journal's own C code).
  local sub = rawequal(state, real) and rawget(real, key) or state[key]
  if type(sub) ~= "table" then
    fail(name, "state." .. key .. " is " .. describe(sub) .. ", but lunar.scope(" .. describe(key) ..
      ") needs a table there")
  end
  local result = user(e.child.reduce, sub, childAction(name, e, action), deps)
  return childEffect(result, e.child, key, nil, nil, "scope"), dismissals
end

return { route = route }
