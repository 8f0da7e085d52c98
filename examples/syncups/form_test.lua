-- TCA's SyncUpFormTests, in Lua.
local test = require "lunar.test"
local models = require "models"
local Form = require "form"

local uuid, attendee = models.uuid, models.attendee

test("addAttendee", function()
  local store = test.store(Form, {
    initial = function(deps)
      return models.formState(models.syncUp { id = "sync-up", attendees = {}, title = "Engineering" }, deps)
    end,
  })
  store:assert(function(state)
    state.syncUp.attendees = { attendee(uuid(0)) }
  end)
  store:send({ type = "addAttendeeButtonTapped" }, function(state)
    state.focus = { attendee = uuid(1) }
    state.syncUp.attendees = { attendee(uuid(0)), attendee(uuid(1)) }
  end)
end)

test("focusAfterRemovingAttendee", function()
  local store = test.store(Form, {
    initial = models.formState(models.meetingOf(4, 60), nil),
  })
  store:send({ type = "deleteAttendees", offsets = { 1 } }, function(state)
    local attendees = state.syncUp.attendees
    state.focus = { attendee = attendees[2].id }
    state.syncUp.attendees = { attendees[2], attendees[3], attendees[4] }
  end)
  store:send({ type = "deleteAttendees", offsets = { 2 } }, function(state)
    local attendees = state.syncUp.attendees
    state.focus = { attendee = attendees[3].id }
    state.syncUp.attendees = { attendees[1], attendees[3] }
  end)
  store:send({ type = "deleteAttendees", offsets = { 2 } }, function(state)
    local attendees = state.syncUp.attendees
    state.focus = { attendee = attendees[1].id }
    state.syncUp.attendees = { attendees[1] }
  end)
  store:send({ type = "deleteAttendees", offsets = { 1 } }, function(state)
    state.focus = { attendee = uuid(0) }
    state.syncUp.attendees = { attendee(uuid(0)) }
  end)
end)
