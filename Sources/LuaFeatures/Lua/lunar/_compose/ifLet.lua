-- `lunar._compose.ifLet`, Composable's IfLet and presentation: `lunar.ifLet("detail", Detail)` runs
-- Detail on state.detail while it is not nil. `{ type = "detail", action = { type = "dismiss" } }`
-- dismisses it once the parent's reducers ran (lunar/_compose/dismiss.lua); a presented child that
-- goes away, or is replaced by another identity, has its effects cancelled.
local base = require "lunar._base"
local host = require "lunar._host"
local body = require "lunar._compose.body"
local removal = require "lunar._compose.removal"
local alert = require "lunar._compose.alert"
local presentedFeature, refusal = alert.presented, alert.refusal
local lunar, describe = base.lunarTable, base.describe
local internals = host.internals
local journal, journalLength, layout = internals.journal, internals.journalLength, internals.layout
-- NB: the journal's layout is the transaction's (CLuaTransaction.h), handed over at setup.
local STRIDE, TABLE, KEY, OLD = layout.STRIDE, layout.TABLE, layout.KEY, layout.OLD
local user = internals.user
local entry, checkKey, checkChild = body.entry, body.checkKey, body.checkChild
local fail, childAction, childEffect = body.fail, body.childAction, body.childEffect
local cancelChild = removal.cancelChild

local type, rawget, rawequal = type, rawget, rawequal

--- lunar.ifLet("detail", Detail): Detail runs on state.detail while it is not nil.
--- lunar.ifLet("alert", lunar.alert) presents an alert (or lunar.confirmationDialog, a dialog).
function lunar.ifLet(key, child)
  checkKey("lunar.ifLet", key)
  child = presentedFeature(child)
  checkChild("lunar.ifLet", key, child)
  return entry { kind = "ifLet", key = key, child = child }
end

-- NB: routing runs outside the budget (the body's C loop pauses it around this file's Lua), so it
--     must never run a script's code: every read of a table that state or an action holds is raw
--     (a script can plant metatables with __index, __len or __eq on its own tables), and ids are
--     compared with rawequal.

-- Runs the presented child for `action`, or records its dismissal; returns its (wrapped) effect
-- and the dismissals so far.
local function route(name, e, state, real, action, deps, dismissals)
  local key = e.key
  local sub = childAction(name, e, action)
  local presented = rawget(real, key)
  if presented == nil then
    fail(name, "an action for lunar.ifLet(" .. describe(key) .. ") arrived while nothing is presented " ..
      "(state." .. key .. " is nil: dismissed twice, or sent after the parent removed it)")
  end
  if rawget(sub, "type") == "dismiss" then
    dismissals = dismissals or {}
    dismissals[#dismissals + 1] = e
    dismissals[#dismissals + 1] = false
    return nil, dismissals
  end
  if e.child.ephemeral then
    local wrong = refusal(e.child.name, key, presented, sub)
    if wrong ~= nil then fail(name, wrong) end
  end
  local identity = type(presented) == "table" and rawget(presented, "id") or nil
  local child = rawequal(state, real) and presented or state[key]
  local effect = childEffect(user(e.child.reduce, child, sub, deps), e.child, key, nil, identity, "ifLet")
  if e.child.ephemeral then
    -- NB: an alert goes once the parent saw its button's action, unless the parent replaced it.
    dismissals = dismissals or {}
    dismissals[#dismissals + 1] = e
    dismissals[#dismissals + 1] = presented
  end
  return effect, dismissals
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

return { route = route, checkPresented = checkPresented }
