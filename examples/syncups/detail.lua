-- SyncUpDetail: one sync-up, its past meetings, and what can be done with it: edit it in a sheet,
-- delete it behind an alert, or start a meeting (which asks the speech recognizer first). It holds
-- a reference into the list of sync-ups: an edit made here is the list's, and the file's.
-- `state.syncUps` is the list itself (TCA's `@Shared(.syncUps)` in the reducer), to delete from.
local lunar = require "lunar"
local models = require "models"
local Form = require "form"
local alerts = require "alerts"
local fx = lunar.fx

local function startMeeting()
  return fx.send { type = "delegate", action = { type = "startMeeting" } }
end

local function removeAt(list, offsets)
  table.sort(offsets, function(a, b) return a > b end)
  for _, offset in ipairs(offsets) do table.remove(list, offset) end
end

local function reduce(state, action, deps)
  local t = action.type
  if t == "cancelEditButtonTapped" then
    state.destination = nil

  elseif t == "deleteButtonTapped" then
    state.destination = { screen = "alert", state = alerts.deleteSyncUp() }

  elseif t == "deleteMeetings" then
    removeAt(state.syncUp.meetings, models.copy(action.offsets))

  elseif t == "destination" and action.action.type == "alert" then
    local button = action.action.action.type
    if button == "confirmDeletion" then
      for i, syncUp in ipairs(state.syncUps) do
        if syncUp.id == state.syncUp.id then table.remove(state.syncUps, i) break end
      end
      return fx.dismiss()
    elseif button == "continueWithoutRecording" then
      return startMeeting()
    elseif button == "openSettings" then
      return fx.run(function() deps.settings.open() end)
    end

  elseif t == "doneEditingButtonTapped" then
    local destination = state.destination
    if destination == nil or destination.screen ~= "edit" then return end
    state.syncUp = destination.state.syncUp
    state.destination = nil

  elseif t == "editButtonTapped" then
    state.destination = { screen = "edit", state = models.formState(models.copy(state.syncUp), deps) }

  elseif t == "startMeetingButtonTapped" then
    local status = deps.speech.authorizationStatus()
    if status == "notDetermined" or status == "authorized" then
      return startMeeting()
    elseif status == "denied" then
      state.destination = { screen = "alert", state = alerts.speechRecognitionDenied() }
    elseif status == "restricted" then
      state.destination = { screen = "alert", state = alerts.speechRecognitionRestricted() }
    end
  end
end

local function view(state)
  local syncUp = state.syncUp
  local lines = {
    "‹ Sync-ups   " .. syncUp.title .. "   [ Edit ]",
    "  [ Start meeting ]",
    "  length: " .. models.formatDuration(syncUp.duration) .. " · theme: " .. syncUp.theme,
  }
  if #syncUp.meetings > 0 then
    lines[#lines + 1] = "Past meetings"
    for _, meeting in ipairs(syncUp.meetings) do
      lines[#lines + 1] = "  • " .. models.formatDate(meeting.date)
    end
  end
  lines[#lines + 1] = "Attendees"
  for _, attendee in ipairs(syncUp.attendees) do lines[#lines + 1] = "  • " .. attendee.name end
  lines[#lines + 1] = "  [ Delete ]"
  local destination = state.destination
  if destination ~= nil and destination.screen == "edit" then
    lines[#lines + 1] = "── Edit ──  [ Cancel ]  [ Done ]"
    lines[#lines + 1] = Form.view(destination.state)
  elseif destination ~= nil then
    lines[#lines + 1] = lunar.alertText(destination.state)
  end
  return table.concat(lines, "\n")
end

return lunar.feature {
  name = "SyncUpDetail",
  initial = {},
  -- The sync-up this screen shows, a reference into the list; and the list, to delete it from.
  shared = {
    syncUp = lunar.sharedElement(require("shared").syncUps),
    syncUps = require("shared").syncUps,
  },
  actions = {
    cancelEditButtonTapped = {},
    delegate = { action = { startMeeting = {} } },
    deleteButtonTapped = {},
    deleteMeetings = { offsets = "table" },
    doneEditingButtonTapped = {},
    editButtonTapped = {},
    startMeetingButtonTapped = {},
  },
  clients = { require "speech_client", require "settings_client" },
  body = {
    lunar.destination("destination", { alert = lunar.alert, edit = Form }),
    lunar.reduce(reduce),
  },
  view = view,
}
