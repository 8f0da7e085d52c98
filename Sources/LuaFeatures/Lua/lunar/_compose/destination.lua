-- `lunar._compose.destination`, TCA's `@Reducer enum Destination` presented by one `ifLet`:
-- `lunar.destination("destination", { edit = SyncUpForm, alert = lunar.alert })` runs, on
-- `state.destination = { screen = "edit", state = {…} }`, the case its `screen` names. An action for
-- it names its case, one level per wrapping, as TCA's `.destination(.presented(.edit(…)))`:
-- `{ type = "destination", action = { type = "edit", action = { type = "save" } } }`; an action for
-- a case that is not the one presented fails like an action for a missing child. Dismissal,
-- ephemeral cases (alerts, dialogs) and cancellation follow lunar.ifLet (ifLet.lua): a destination
-- replaced by another case, or by another state `id` of the same case, has its effects cancelled.
local base = require "lunar._base"
local host = require "lunar._host"
local body = require "lunar._compose.body"
local removal = require "lunar._compose.removal"
local alert = require "lunar._compose.alert"
local presentedFeature, refusal = alert.presented, alert.refusal
local lunar, describe, isFeature = base.lunarTable, base.describe, base.isFeature
local internals = host.internals
local journal, journalLength, layout = internals.journal, internals.journalLength, internals.layout
-- NB: the journal's layout is the transaction's (CLuaTransaction.h), handed over at setup.
local STRIDE, TABLE, KEY, OLD = layout.STRIDE, layout.TABLE, layout.KEY, layout.OLD
local user, isAction = internals.user, internals.isAction
local entry, checkKey, checkChild = body.entry, body.checkKey, body.checkChild
local fail, childAction, childEffect = body.fail, body.childAction, body.childEffect
local cancelChild = removal.cancelChild

local type, rawget, rawequal, error, pairs, tostring = type, rawget, rawequal, error, pairs, tostring

--- lunar.destination("destination", { edit = Form, alert = lunar.alert }): state.destination,
--- when not nil, is { screen = "edit", state = {…} }, and the feature its `screen` names runs it.
function lunar.destination(key, cases)
  checkKey("lunar.destination", key)
  if type(cases) ~= "table" or isFeature(cases) then
    error("lunar.destination(" .. describe(key) .. ", …) expects its cases by name, like " ..
      "{ edit = Form, alert = lunar.alert }, got " .. describe(cases), 2)
  end
  local copy, names = {}, {}
  for name, child in pairs(cases) do
    if type(name) ~= "string" or name == "dismiss" then
      error("lunar.destination(" .. describe(key) .. ", …): cases are named by strings other than \"dismiss\", got " ..
        describe(name), 2)
    end
    child = presentedFeature(child)
    checkChild("lunar.destination(" .. describe(key) .. ", …): case", name, child)
    copy[name] = child
    names[#names + 1] = name
  end
  if #names == 0 then
    error("lunar.destination(" .. describe(key) .. ", …) needs at least one case, like { edit = Form }", 2)
  end
  table.sort(names)
  return entry {
    kind = "destination", key = key, destinations = copy, names = table.concat(names, ", "), sorted = names,
  }
end

-- NB: routing runs outside the budget (the body's C loop pauses it around this file's Lua), so it
--     must never run a script's code: every read of a table that state or an action holds is raw.

-- Who a presented destination is, for cancellation: its case, and its state's `id` if it has one.
local function identityOf(presented)
  local screen = rawget(presented, "screen")
  local state = rawget(presented, "state")
  local id = type(state) == "table" and rawget(state, "id") or nil
  if id == nil then return screen end
  return tostring(screen) .. "#" .. type(id) .. ":" .. tostring(id)
end

local function record(dismissals, e, presented)
  dismissals = dismissals or {}
  dismissals[#dismissals + 1] = e
  dismissals[#dismissals + 1] = presented
  return dismissals
end

-- Runs the presented case for `action`, or records its dismissal; returns its (wrapped) effect and
-- the dismissals so far.
local function route(name, e, state, real, action, deps, dismissals)
  local key = e.key
  local sub = childAction(name, e, action)
  local presented = rawget(real, key)
  if presented == nil then
    fail(name, "an action for lunar.destination(" .. describe(key) .. ") arrived while nothing is presented " ..
      "(state." .. key .. " is nil: dismissed twice, or sent after the parent removed it)")
  end
  local case = rawget(sub, "type")
  if case == "dismiss" then return nil, record(dismissals, e, false) end
  local child = e.destinations[case]
  if child == nil then
    fail(name, describe(case) .. " is not a case of lunar.destination(" .. describe(key) .. ") (cases: " ..
      e.names .. "; or \"dismiss\")" .. host.suggestion(case, e.sorted))
  end
  local screen = type(presented) == "table" and rawget(presented, "screen") or nil
  if not rawequal(screen, case) then
    fail(name, "an action for the " .. describe(case) .. " case of lunar.destination(" .. describe(key) ..
      ") arrived while state." .. key .. " is " .. (screen ~= nil and ("the " .. describe(screen) .. " case") or
      describe(presented)) .. " (sent after the parent changed it?)")
  end
  local inner = rawget(sub, "action")
  if not isAction(inner) then
    fail(name, "an action for the " .. describe(case) .. " case of lunar.destination(" .. describe(key) ..
      ") carries the case's action, as in { type = " .. describe(key) .. ", action = { type = " .. describe(case) ..
      ", action = { type = … } } }; got action = " .. describe(inner))
  end
  if child.ephemeral then
    local wrong = refusal(child.name, key .. ".state", rawget(presented, "state"), inner)
    if wrong ~= nil then fail(name, wrong) end
  end
  local caseState = rawequal(state, real) and rawget(presented, "state") or state[key].state
  local effect = childEffect(user(child.reduce, caseState, inner, deps), child, case, nil, nil, "scope")
  effect = childEffect(effect, child, key, nil, identityOf(presented), "ifLet")
  if child.ephemeral then dismissals = record(dismissals, e, presented) end
  return effect, dismissals
end

-- Checks what state[key] holds after an action that touched it, and cancels the effects of a case
-- that went away or was replaced by another identity.
local function check(name, e, real, effects, count)
  local key = e.key
  local now = rawget(real, key)
  if now ~= nil then
    local screen = type(now) == "table" and rawget(now, "screen") or nil
    if type(now) ~= "table" or type(screen) ~= "string" then
      fail(name, "state." .. key .. " must be nil or a destination like { screen = \"" ..
        e.sorted[1] .. "\", state = {…} }, got " ..
        (type(now) == "table" and ("screen = " .. describe(screen)) or describe(now)))
    end
    if e.destinations[screen] == nil then
      fail(name, "state." .. key .. ".screen is " .. describe(screen) ..
        ", which is not a case of lunar.destination(" .. describe(key) .. ") (cases: " .. e.names .. ")" ..
        host.suggestion(screen, e.sorted))
    end
    if type(rawget(now, "state")) ~= "table" then
      fail(name, "state." .. key .. ".state must be the " .. describe(screen) .. " case's state (a table), got " ..
        describe(rawget(now, "state")))
    end
  end
  for i = 1, journalLength(), STRIDE do
    if rawequal(journal[i + TABLE], real) and rawequal(journal[i + KEY], key) then
      local before = journal[i + OLD]
      if type(before) == "table" and not rawequal(before, now) then
        local identity = identityOf(before)
        if now == nil or identityOf(now) ~= identity then
          effects, count = cancelChild(effects, count, key, identity)
        end
      end
      return effects, count
    end
  end
  return effects, count
end

return { route = route, check = check }
