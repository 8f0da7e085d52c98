-- SyncUpsList: every sync-up, persisted in the user's data folder (`syncUps` is shared state saved
-- to a file), and a sheet to add one. Opening a sync-up is the app's business: a row pushes a
-- detail screen on the app's stack.
local lunar = require "lunar"
local models = require "models"
local Form = require "form"

-- The sync-up the sheet holds, with its blank attendees dropped; never without an attendee.
local function validated(form, deps)
  local syncUp = models.copy(form.syncUp)
  local attendees = lunar.array()
  for _, attendee in ipairs(syncUp.attendees) do
    if not models.isBlank(attendee.name) then attendees[#attendees + 1] = attendee end
  end
  if #attendees == 0 then
    attendees[1] = models.copy(form.syncUp.attendees[1]) or models.attendee(deps.uuid())
  end
  syncUp.attendees = attendees
  return syncUp
end

local function reduce(state, action, deps)
  local t = action.type
  if t == "addSyncUpButtonTapped" then
    state.destination = { screen = "add", state = models.formState(models.syncUp { id = deps.uuid() }, deps) }

  elseif t == "confirmAddSyncUpButtonTapped" then
    local destination = state.destination
    if destination == nil or destination.screen ~= "add" then return end
    table.insert(state.syncUps, validated(destination.state, deps))
    state.destination = nil

  elseif t == "dismissAddSyncUpButtonTapped" then
    state.destination = nil

  elseif t == "onDelete" then
    local offsets = models.copy(action.offsets)
    table.sort(offsets, function(a, b) return a > b end)
    for _, offset in ipairs(offsets) do table.remove(state.syncUps, offset) end
  end
end

local function view(state)
  local lines = { "Daily Sync-ups   [ + ]" }
  if #state.syncUps == 0 then lines[#lines + 1] = "  (none yet: add one with addSyncUpButtonTapped)" end
  for i, syncUp in ipairs(state.syncUps) do
    lines[#lines + 1] = string.format("  %d. %s · %d attendees · %s · %s", i, syncUp.title, #syncUp.attendees,
      models.formatDuration(syncUp.duration), syncUp.theme)
  end
  local destination = state.destination
  if destination ~= nil and destination.screen == "add" then
    lines[#lines + 1] = "── New sync-up ──  [ Dismiss ]  [ Add ]"
    lines[#lines + 1] = Form.view(destination.state)
  end
  return table.concat(lines, "\n")
end

return lunar.feature {
  name = "SyncUpsList",
  initial = {},
  shared = {
    syncUps = require("shared").syncUps,
  },
  actions = {
    addSyncUpButtonTapped = {},
    confirmAddSyncUpButtonTapped = {},
    dismissAddSyncUpButtonTapped = {},
    onDelete = { offsets = "table" },
  },
  body = {
    lunar.destination("destination", { add = Form }),
    lunar.reduce(reduce),
  },
  view = view,
}
