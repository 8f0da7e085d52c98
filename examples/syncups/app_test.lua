-- TCA's AppFeatureTests, in Lua: the screens composed on the app's stack, sharing one sync-up.
local test = require "lunar.test"
local models = require "models"
local App = require "feature"
local Detail = require "detail"
local Record = require "record"
local alerts = require "alerts"

local function push(id, screen, state)
  return { type = "path", action = { type = "push", id = id, screen = screen, state = state } }
end

local function onDetail(id, action)
  return { type = "path", id = id, action = action }
end

test("detailEdit", function()
  local syncUp = models.mock()
  local store = test.store(App, { initial = App:initialWith { syncUpsList = { syncUps = { syncUp } } } })

  store:send(push(0, "detail", Detail:initialWith { syncUp = syncUp }), function(state)
    state.path[1] = { id = 0, screen = "detail", state = Detail:initialWith { syncUp = syncUp } }
  end)
  store:send(onDetail(0, { type = "editButtonTapped" }), function(state)
    state.path[1].state.destination = { screen = "edit", state = { focus = "title", syncUp = syncUp } }
  end)
  local newSyncUp = models.copy(syncUp)
  newSyncUp.title = "Blob"
  store:send(onDetail(0, { type = "destination",
    action = { type = "edit", action = { type = "binding", path = "syncUp", value = newSyncUp } } }), function(state)
    state.path[1].state.destination.state.syncUp.title = "Blob"
  end)
  store:send(onDetail(0, { type = "doneEditingButtonTapped" }), function(state)
    state.path[1].state.destination = nil
    state.path[1].state.syncUp.title = "Blob"
  end)
  store:finish()
end)

test("delete", function()
  local syncUp = models.mock()
  local store = test.store(App, { initial = App:initialWith { syncUpsList = { syncUps = { syncUp } } } })

  store:send(push(0, "detail", Detail:initialWith { syncUp = syncUp }), function(state)
    state.path[1] = { id = 0, screen = "detail", state = Detail:initialWith { syncUp = syncUp } }
  end)
  store:send(onDetail(0, { type = "deleteButtonTapped" }), function(state)
    state.path[1].state.destination = { screen = "alert", state = alerts.deleteSyncUp() }
  end)
  store:send(onDetail(0, { type = "destination", action = { type = "alert", action = { type = "confirmDeletion" } } }),
    function(state)
      state.path[1].state.destination = nil
      state.syncUpsList.syncUps = {}
    end)
  store:receive({ type = "path", action = { type = "popFrom", id = 0 } }, function(state)
    state.path = {}
  end)
end)

test("recording", function()
  local syncUp = models.meetingOf(3, 6)
  local store = test.store(App, {
    initial = App:initialWith {
      syncUpsList = { syncUps = { syncUp } },
      path = {
        { id = 0, screen = "detail", state = Detail:initialWith { syncUp = syncUp } },
        { id = 1, screen = "record", state = Record:initialWith { syncUp = syncUp } },
      },
    },
    deps = {
      now = function() return 1234567890 end,
      speech = {
        authorizationStatus = function() return "authorized" end,
        start = function()
          local heard = { "I completed the project" }
          local i = 0
          return function()
            i = i + 1
            return heard[i]
          end
        end,
      },
    },
  })

  store:withExhaustivity("off", function()
    store:send(onDetail(1, { type = "onTask" }))
    store:advance(6)
    store:receive({ type = "path", action = { type = "popFrom", id = 1 } }, function(state)
      assert(#state.path == 1, "the recorder is still on the stack")
    end)
  end)
  store:finish()
  store:assert(function(state)
    state.path[1].state.syncUp.meetings = {
      { id = models.uuid(0), date = 1234567890, transcript = "I completed the project" },
    }
  end)
end)
