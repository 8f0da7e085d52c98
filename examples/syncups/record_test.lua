-- TCA's RecordMeetingTests, in Lua. The recorder's sync-up is shared; its meetings are asserted
-- through the screen's state, where the reference shows them.
local test = require "lunar.test"
local models = require "models"
local Record = require "record"
local alerts = require "alerts"

local NOW = 1234567890

-- The recognizer's `start`: it hears `transcripts`, then ends, or fails with `failure`.
local function heard(transcripts, failure)
  return function()
    local i = 0
    return function()
      i = i + 1
      if transcripts[i] ~= nil then return transcripts[i] end
      if failure ~= nil then error(failure, 0) end
    end
  end
end

local function recordStore(syncUp, speech)
  return test.store(Record, {
    initial = Record:initialWith { syncUp = syncUp },
    deps = { now = function() return NOW end, speech = speech },
  })
end

local function meeting(transcript)
  return { id = models.uuid(0), date = NOW, transcript = transcript }
end

local denied = { authorizationStatus = function() return "denied" end }

test("timer", function()
  local store = recordStore(models.meetingOf(3, 6), denied)
  store:send({ type = "onTask" })
  local expected = { { 0, 1, 5 }, { 1, 2, 4 }, { 1, 3, 3 }, { 2, 4, 2 }, { 2, 5, 1 } }
  for _, tick in ipairs(expected) do
    store:advance(1)
    store:receive("timerTick", function(state)
      state.speakerIndex = tick[1]
      state.secondsElapsed = tick[2]
      assert(state.syncUp.duration - state.secondsElapsed == tick[3])
    end)
  end
  store:advance(1)
  store:receive("timerTick", function(state)
    state.speakerIndex = 2
    state.secondsElapsed = 6
    table.insert(state.syncUp.meetings, 1, meeting(""))
    assert(state.syncUp.duration - state.secondsElapsed == 0)
  end)
  assert(store:isDismissed(), "the recorder was not dismissed")
end)

test("recordTranscript", function()
  local store = recordStore(models.meetingOf(3, 6), {
    authorizationStatus = function() return "authorized" end,
    start = heard { "I completed the project" },
  })
  store:send({ type = "onTask" })
  store:receive("speechResult", function(state)
    state.transcript = "I completed the project"
  end)
  store:withExhaustivity("off", { showSkipped = true }, function()
    store:advance(6)
    for _ = 1, 6 do store:receive("timerTick") end
  end)
  store:finish()
  store:assert(function(state)
    state.syncUp.meetings[1].transcript = "I completed the project"
  end)
end)

test("endMeetingSave", function()
  local store = recordStore(models.mock(), denied)
  store:send({ type = "onTask" })
  store:send({ type = "endMeetingButtonTapped" }, function(state)
    state.alert = alerts.endMeeting(true)
  end)
  store:advance(3)
  store:receive("timerTick")
  store:receive("timerTick")
  store:receive("timerTick")
  store:send({ type = "alert", action = { type = "confirmSave" } }, function(state)
    state.alert = nil
    table.insert(state.syncUp.meetings, 1, meeting(""))
  end)
end)

test("endMeetingDiscard", function()
  local store = recordStore(models.mock(), denied)
  store:send({ type = "onTask" })
  store:send({ type = "endMeetingButtonTapped" }, function(state)
    state.alert = alerts.endMeeting(true)
  end)
  store:send({ type = "alert", action = { type = "confirmDiscard" } }, function(state)
    state.alert = nil
  end)
end)

test("nextSpeaker", function()
  local store = recordStore(models.meetingOf(3, 6), denied)
  store:send({ type = "onTask" })
  store:send({ type = "nextButtonTapped" }, function(state)
    state.speakerIndex = 1
    state.secondsElapsed = 2
  end)
  store:send({ type = "nextButtonTapped" }, function(state)
    state.speakerIndex = 2
    state.secondsElapsed = 4
  end)
  store:send({ type = "nextButtonTapped" }, function(state)
    state.alert = alerts.endMeeting(false)
  end)
  store:send({ type = "alert", action = { type = "confirmSave" } }, function(state)
    state.alert = nil
    table.insert(state.syncUp.meetings, 1, meeting(""))
  end)
end)

test("continueAfterSpeechRecognitionFailure", function()
  local store = recordStore(models.meetingOf(3, 6), {
    authorizationStatus = function() return "authorized" end,
    start = heard({ "I completed the project" }, "speech recognition failed"),
  })
  store:send({ type = "onTask" })
  store:receive("speechResult", function(state)
    state.transcript = "I completed the project"
  end)
  store:receive("speechFailure", function(state)
    state.alert = alerts.speechRecognizerFailed()
    state.transcript = "I completed the project ❌"
  end)
  store:send({ type = "alert", action = { type = "dismiss" } }, function(state)
    state.alert = nil
  end)
  store:advance(6)
  store:withExhaustivity("off", { showSkipped = true }, function()
    for _ = 1, 6 do store:receive("timerTick") end
  end)
end)

test("discardAfterSpeechRecognitionFailure", function()
  local store = recordStore(models.mock(), {
    authorizationStatus = function() return "authorized" end,
    start = heard({}, "speech recognition failed"),
  })
  store:send({ type = "onTask" })
  store:receive("speechFailure", function(state)
    state.alert = alerts.speechRecognizerFailed()
  end)
  store:send({ type = "alert", action = { type = "confirmDiscard" } }, function(state)
    state.alert = nil
  end)
end)
