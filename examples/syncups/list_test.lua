-- TCA's SyncUpsListTests, in Lua.
local test = require "lunar.test"
local models = require "models"
local List = require "list"

local uuid, attendee = models.uuid, models.attendee

test("add", function()
  local store = test.store(List)
  local syncUp = models.syncUp { id = uuid(0), attendees = { attendee(uuid(1)) } }

  store:send({ type = "addSyncUpButtonTapped" }, function(state)
    state.destination = { screen = "add", state = { focus = "title", syncUp = models.copy(syncUp) } }
  end)
  syncUp.title = "Engineering"
  local binding = { type = "binding", path = "syncUp", value = syncUp }
  store:send({ type = "destination", action = { type = "add", action = binding } }, function(state)
    state.destination.state.syncUp.title = "Engineering"
  end)
  store:send({ type = "confirmAddSyncUpButtonTapped" }, function(state)
    state.destination = nil
    state.syncUps = { syncUp }
  end)
end)

test("addAndConfirmValidatesAttendees", function()
  local id = "deadbeef-dead-beef-dead-beefdeadbeef"
  local store = test.store(List, {
    initial = {
      destination = { screen = "add", state = {
        focus = "title",
        syncUp = models.syncUp {
          id = id,
          attendees = { attendee(uuid(0), ""), attendee(uuid(1), "    ") },
          title = "Design",
        },
      } },
    },
  })
  store:send({ type = "confirmAddSyncUpButtonTapped" }, function(state)
    state.destination = nil
    state.syncUps = { models.syncUp { id = id, attendees = { attendee(uuid(0)) }, title = "Design" } }
  end)
end)
