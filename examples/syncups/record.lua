-- RecordMeeting: a meeting in progress. A timer gives each attendee an equal share of the
-- sync-up's length; the speech recognizer writes the transcript as it hears it. The meeting is
-- saved into the sync-up (a reference into the list, so the list and the file have it too) when the
-- time is up, or when the user ends it early and chooses to save.
local lunar = require "lunar"
local models = require "models"
local alerts = require "alerts"
local fx = lunar.fx

-- What the recognizer hears, as actions, for as long as it hears; a failure is an action too.
local function recognizeSpeech(deps)
  return fx.run(function(send)
    local status = deps.speech.authorizationStatus()
    if status == "notDetermined" then status = deps.speech.requestAuthorization() end
    if status ~= "authorized" then return end
    for transcript in deps.speech.start() do
      send { type = "speechResult", transcript = transcript }
    end
  end, {
    catch = function(_, send) send { type = "speechFailure" } end,
  })
end

local function startTimer(deps)
  return fx.run(function(send)
    while true do
      deps.clock.sleep(1)
      send { type = "timerTick" }
    end
  end)
end

local function saveAndEnd(state, deps)
  models.insertMeeting(state.syncUp, state.transcript, deps)
  return fx.dismiss()
end

local function reduce(state, action, deps)
  local t = action.type
  if t == "alert" then
    local button = action.action.type
    if button == "confirmDiscard" then
      return fx.dismiss()
    elseif button == "confirmSave" then
      return saveAndEnd(state, deps)
    end

  elseif t == "endMeetingButtonTapped" then
    state.alert = alerts.endMeeting(true)

  elseif t == "nextButtonTapped" then
    if state.speakerIndex >= #state.syncUp.attendees - 1 then
      state.alert = alerts.endMeeting(false)
      return
    end
    state.speakerIndex = state.speakerIndex + 1
    state.secondsElapsed = state.speakerIndex * models.durationPerAttendee(state.syncUp)

  elseif t == "onTask" then
    return fx.merge(recognizeSpeech(deps), startTimer(deps))

  elseif t == "timerTick" then
    if state.alert ~= nil then return end
    state.secondsElapsed = state.secondsElapsed + 1
    if state.secondsElapsed % models.durationPerAttendee(state.syncUp) == 0 then
      if state.secondsElapsed == state.syncUp.duration then
        return saveAndEnd(state, deps)
      end
      state.speakerIndex = state.speakerIndex + 1
    end

  elseif t == "speechFailure" then
    if state.transcript ~= "" then state.transcript = state.transcript .. " ❌" end
    state.alert = alerts.speechRecognizerFailed()

  elseif t == "speechResult" then
    state.transcript = action.transcript
  end
end

local function view(state)
  local syncUp = state.syncUp
  local remaining = syncUp.duration - state.secondsElapsed
  local speaker = syncUp.attendees[state.speakerIndex + 1]
  local lines = {
    "[ End meeting ]   " .. syncUp.title,
    string.format("  %s elapsed · %s remaining", models.formatDuration(state.secondsElapsed),
      models.formatDuration(remaining)),
    string.format("  Speaker %d of %d: %s   [ Next ]", state.speakerIndex + 1, #syncUp.attendees,
      speaker and speaker.name or ""),
  }
  if state.transcript ~= "" then lines[#lines + 1] = "  “" .. state.transcript .. "”" end
  if state.alert ~= nil then lines[#lines + 1] = lunar.alertText(state.alert) end
  return table.concat(lines, "\n")
end

return lunar.feature {
  name = "RecordMeeting",
  initial = { secondsElapsed = 0, speakerIndex = 0, transcript = "" },
  shared = {
    syncUp = lunar.sharedElement(require("shared").syncUps),
  },
  actions = {
    endMeetingButtonTapped = {},
    nextButtonTapped = {},
    onTask = {},
    timerTick = {},
    speechFailure = {},
    speechResult = { transcript = "string" },
  },
  clients = { require "speech_client" },
  body = {
    lunar.ifLet("alert", lunar.alert),
    lunar.reduce(reduce),
  },
  view = view,
}
