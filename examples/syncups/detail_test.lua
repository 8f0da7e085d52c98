-- TCA's SyncUpDetailTests, in Lua.
local test = require "lunar.test"
local models = require "models"
local Detail = require "detail"
local alerts = require "alerts"

-- The detail of the mock sync-up, its speech recognizer answering `status`.
local function detailStore(status, options)
  options = options or {}
  options.initial = options.initial or Detail:initialWith { syncUp = models.mock() }
  options.deps = options.deps or {}
  options.deps.speech = { authorizationStatus = function() return status end }
  return test.store(Detail, options)
end

local function alertOf(button)
  return { type = "destination", action = { type = "alert", action = { type = button } } }
end

test("speechRestricted", function()
  local store = detailStore("restricted")
  store:send({ type = "startMeetingButtonTapped" }, function(state)
    state.destination = { screen = "alert", state = alerts.speechRecognitionRestricted() }
  end)
end)

local denied = alerts.speechRecognitionDenied()

test("speechDenied", function()
  local store = detailStore("denied")
  store:send({ type = "startMeetingButtonTapped" }, function(state)
    state.destination = { screen = "alert", state = denied }
  end)
end)

test("openSettings", function()
  local settingsOpened = false
  local store = detailStore("denied", {
    initial = Detail:initialWith { syncUp = models.mock(), destination = { screen = "alert", state = denied } },
    deps = { settings = { open = function() settingsOpened = true end } },
  })
  store:send(alertOf("openSettings"), function(state)
    state.destination = nil
  end)
  store:finish()
  assert(settingsOpened, "the settings were not opened")
end)

test("continueWithoutRecording", function()
  local store = detailStore("denied", {
    initial = Detail:initialWith { syncUp = models.mock(), destination = { screen = "alert", state = denied } },
  })
  store:send(alertOf("continueWithoutRecording"), function(state)
    state.destination = nil
  end)
  store:receive({ type = "delegate", action = { type = "startMeeting" } })
end)

test("speechAuthorized", function()
  local store = detailStore("authorized")
  store:send({ type = "startMeetingButtonTapped" })
  store:receive({ type = "delegate", action = { type = "startMeeting" } })
end)

test("edit", function()
  local syncUp = models.mock()
  local store = test.store(Detail, { initial = Detail:initialWith { syncUp = models.copy(syncUp) } })
  store:send({ type = "editButtonTapped" }, function(state)
    state.destination = { screen = "edit", state = { focus = "title", syncUp = models.copy(syncUp) } }
  end)
  syncUp.title = "Blob's Meeting"
  local binding = { type = "binding", path = "syncUp", value = syncUp }
  store:send({ type = "destination", action = { type = "edit", action = binding } }, function(state)
    state.destination.state.syncUp.title = "Blob's Meeting"
  end)
  store:send({ type = "doneEditingButtonTapped" }, function(state)
    state.destination = nil
    state.syncUp.title = "Blob's Meeting"
  end)
end)

test("delete", function()
  local syncUp = models.mock()
  local store = test.store(Detail, { initial = Detail:initialWith { syncUp = syncUp, syncUps = { syncUp } } })
  store:send({ type = "deleteButtonTapped" }, function(state)
    state.destination = { screen = "alert", state = alerts.deleteSyncUp() }
  end)
  store:send(alertOf("confirmDeletion"), function(state)
    state.destination = nil
    state.syncUps = {}
  end)
  assert(store:isDismissed(), "the detail was not dismissed")
end)
