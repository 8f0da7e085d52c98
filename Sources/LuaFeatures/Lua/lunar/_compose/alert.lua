-- `lunar._compose.alert`, Composable's AlertState and ConfirmationDialogState: `lunar.alert {…}` and
-- `lunar.confirmationDialog {…}` build plain state tables (title, message, buttons and the actions
-- they send), which a parent presents with `lunar.ifLet("alert", lunar.alert)` or as a case of
-- `lunar.destination`. Presented, they are ephemeral, as in TCA: a button's action reaches the
-- parent, then the alert goes away (unless the parent replaced it) — ifLet.lua and
-- destination.lua record that as a dismissal, which dismiss.lua applies after the body ran.
local base = require "lunar._base"
local lunar, describe = base.lunarTable, base.describe

local type, pairs, rawget, rawequal, rawlen, error, ipairs = type, pairs, rawget, rawequal, rawlen, error, ipairs
local concat = table.concat

local ROLES = { cancel = true, destructive = true }
local VISIBILITIES = { automatic = true, visible = true, hidden = true }
local BUTTON_FIELDS = { label = true, role = true, action = true }

-- A checked copy of a definition's buttons; `what` names the builder in messages.
local function buttonsOf(what, buttons)
  if buttons == nil then return {} end
  if type(buttons) ~= "table" then
    error(what .. ": `buttons` is a list like { { label = \"OK\" } }, got " .. describe(buttons), 4)
  end
  local n, copy = #buttons, {}
  for k in pairs(buttons) do
    if type(k) ~= "number" or k < 1 or k > n or k % 1 ~= 0 then
      error(what .. ": `buttons` is a list like { { label = \"OK\" } }, got the key " .. describe(k), 4)
    end
  end
  for i = 1, n do
    local button = buttons[i]
    local here = what .. ": buttons[" .. i .. "]"
    if type(button) ~= "table" then
      error(here .. " is a table like { label = \"Delete\", role = \"destructive\", action = { type = … } }, got " ..
        describe(button), 4)
    end
    for field in pairs(button) do
      if not BUTTON_FIELDS[field] then
        error(here .. " has no field " .. describe(field) .. "; a button has label, role, action", 4)
      end
    end
    if type(button.label) ~= "string" then
      error(here .. " needs a `label` string, got " .. describe(button.label), 4)
    end
    if button.role ~= nil and not ROLES[button.role] then
      error(here .. ": unknown role " .. describe(button.role) .. "; roles are \"cancel\" and \"destructive\" " ..
        "(or none)", 4)
    end
    local action = button.action
    if action ~= nil and (type(action) ~= "table" or type(rawget(action, "type")) ~= "string") then
      error(here .. ": `action` is the action the button sends, like { type = \"confirmDeletion\" }, got " ..
        describe(action), 4)
    end
    copy[i] = { label = button.label, role = button.role, action = action }
  end
  return copy
end

local function build(kind, what, definition, extra)
  if type(definition) ~= "table" then
    error(what .. " expects a table like { title = \"Delete?\", buttons = { … } }, got " .. describe(definition), 3)
  end
  for field in pairs(definition) do
    if field ~= "title" and field ~= "message" and field ~= "buttons" and field ~= extra then
      error(what .. " has no field " .. describe(field) .. "; it has title, message, buttons" ..
        (extra and (", " .. extra) or ""), 3)
    end
  end
  if type(definition.title) ~= "string" then
    error(what .. " needs a `title` string, got " .. describe(definition.title), 3)
  end
  if definition.message ~= nil and type(definition.message) ~= "string" then
    error(what .. ": `message` must be a string, got " .. describe(definition.message), 3)
  end
  return { kind = kind, title = definition.title, message = definition.message,
    buttons = buttonsOf(what, definition.buttons) }
end

--- lunar.alert { title = …, message = …, buttons = { { label = …, role = …, action = … } } }: an
--- alert as state.
function lunar.alert(definition)
  -- NB: not a tail call, so that its errors name the caller's line.
  local alert = build("alert", "lunar.alert", definition, nil)
  return alert
end

--- lunar.confirmationDialog { title = …, message = …, titleVisibility = …, buttons = { … } }: a
--- confirmation dialog as state.
function lunar.confirmationDialog(definition)
  local dialog = build("confirmationDialog", "lunar.confirmationDialog", definition, "titleVisibility")
  local visibility = definition.titleVisibility
  if visibility ~= nil and not VISIBILITIES[visibility] then
    error("lunar.confirmationDialog: unknown titleVisibility " .. describe(visibility) ..
      "; it is \"automatic\", \"visible\" or \"hidden\"", 2)
  end
  dialog.titleVisibility = visibility
  return dialog
end

--- lunar.alertText(alert): an alert or a dialog as lines of text, for a `view`.
function lunar.alertText(alert)
  if type(alert) ~= "table" or type(alert.title) ~= "string" or type(alert.buttons) ~= "table" then
    error("lunar.alertText expects what lunar.alert or lunar.confirmationDialog built, got " .. describe(alert), 2)
  end
  local lines = {}
  if alert.titleVisibility ~= "hidden" then lines[1] = "[" .. alert.title .. "]" end
  if alert.message ~= nil then lines[#lines + 1] = alert.message end
  local labels = {}
  for i, button in ipairs(alert.buttons) do
    local action = button.action
    local label = "(" .. button.label .. (button.role and (", " .. button.role) or "") .. ")"
    labels[i] = label .. " -> " .. (action and action.type or "dismiss")
  end
  if #labels == 0 then labels[1] = "(OK) -> dismiss" end
  lines[#lines + 1] = concat(labels, "  ")
  return concat(lines, "\n")
end

-- The problem with `action` for a presented alert or dialog (`alert`, its state table): an action
-- that none of its buttons sends. Read raw: the routing calls it, and never runs a script's code.
local function refusal(what, key, alert, action)
  local buttons = type(alert) == "table" and rawget(alert, "buttons") or nil
  local sent, types = rawget(action, "type"), {}
  for i = 1, type(buttons) == "table" and rawlen(buttons) or 0 do
    local button = rawget(buttons, i)
    local a = type(button) == "table" and rawget(button, "action") or nil
    if type(a) == "table" then
      if rawequal(rawget(a, "type"), sent) then return nil end
      types[#types + 1] = describe(rawget(a, "type"))
    end
  end
  return "no button of the " .. what .. " at state." .. key .. " sends " .. describe(sent) .. " (its buttons send " ..
    (#types == 0 and "nothing but dismiss" or concat(types, ", ")) .. ")"
end

-- The child that runs a presented alert or dialog: it does nothing itself (its buttons' actions are
-- for the parent; the routing checks them with `refusal`).
local function ephemeral(name)
  local feature = lunar.feature { name = name, initial = { title = "" }, reduce = function() end }
  feature.ephemeral = true
  return feature
end

-- NB: made on first use: the prelude's hooks a feature needs are not all loaded with this file.
local made = {}

-- The feature that runs `child` when it is lunar.alert or lunar.confirmationDialog; else `child`.
local function presented(child)
  local name = rawequal(child, lunar.alert) and "alert" or
    rawequal(child, lunar.confirmationDialog) and "confirmation dialog" or nil
  if name == nil then return child end
  local feature = made[name]
  if feature == nil then
    feature = ephemeral(name)
    made[name] = feature
  end
  return feature
end

return { presented = presented, refusal = refusal }
