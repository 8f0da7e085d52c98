-- Destinations, alerts and dialogs, bindings and stack actions, as lunar.test sees them.
local test = require "lunar.test"
local lunar = require "lunar"
local Meeting = require "meeting"

local DELETE = lunar.alert {
  title = "Delete?",
  message = "Are you sure you want to delete this meeting?",
  buttons = {
    { label = "Delete", role = "destructive", action = { type = "confirmDeletion" } },
    { label = "Ask again", action = { type = "askAgain" } },
    { label = "Cancel", role = "cancel" },
  },
}

local function edit(action)
  return { type = "destination", action = { type = "edit", action = action } }
end

local function alert(action)
  return { type = "destination", action = { type = "alert", action = action } }
end

test("a destination case runs its feature", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send(edit { type = "setTitle", title = "Weekly" }, function(state)
    state.destination.state.title = "Weekly"
  end)
  store:send(edit { type = "save" }, function(state)
    state.title = "Weekly"
    state.destination = nil
  end)
end)

test("a case's effect comes back wrapped in its case", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send(edit { type = "start" })
  store:advance(1)
  store:receive(edit { type = "tick" }, function(state) state.destination.state.ticks = 1 end)
end)

test("changing the destination cancels the previous case's effects", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send(edit { type = "start" })
  store:send({ type = "deleteTapped" }, function(state)
    state.destination = { screen = "alert", state = DELETE }
  end)
  store:advance(1)
end)

test("a case of another id is another presentation", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send(edit { type = "start" })
  store:send({ type = "editOther" }, function(state)
    state.destination = { screen = "edit", state = { id = 2, title = "other", ticks = 0 } }
  end)
  store:advance(1)
end)

test("clearing the destination cancels its effects", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send(edit { type = "start" })
  store:send({ type = "clear" }, function(state) state.destination = nil end)
  store:advance(1)
end)

test("a case dismisses itself, after the parent saw it", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send(edit { type = "close" })
  store:receive({ type = "destination", action = { type = "dismiss" } }, function(state)
    state.sawDismiss = "edit"
    state.destination = nil
  end)
end)

test("an alert is data, compared with ==", function()
  local store = test.store(Meeting)
  store:send({ type = "deleteTapped" }, function(state)
    state.destination = { screen = "alert", state = lunar.alert {
      title = "Delete?",
      message = "Are you sure you want to delete this meeting?",
      buttons = {
        { label = "Delete", role = "destructive", action = { type = "confirmDeletion" } },
        { label = "Ask again", action = { type = "askAgain" } },
        { label = "Cancel", role = "cancel" },
      },
    } }
  end)
end)

test("an alert's button reaches the parent, then the alert goes", function()
  local store = test.store(Meeting)
  store:send({ type = "deleteTapped" }, function(state) state.destination = { screen = "alert", state = DELETE } end)
  store:send(alert { type = "confirmDeletion" }, function(state)
    state.deleted = true
    state.sawAlert = "confirmDeletion"
    state.destination = nil
  end)
end)

test("an alert the parent replaced in answer to its button stays", function()
  local store = test.store(Meeting)
  store:send({ type = "deleteTapped" }, function(state) state.destination = { screen = "alert", state = DELETE } end)
  store:send(alert { type = "askAgain" }, function(state)
    state.sawAlert = "askAgain"
    state.destination = { screen = "alert", state = DELETE }
  end)
end)

test("an alert of its own field goes after its button", function()
  local store = test.store(Meeting)
  store:send({ type = "warn" }, function(state)
    state.alert = lunar.alert { title = "Careful", buttons = { { label = "OK", action = { type = "ok" } } } }
  end)
  store:send({ type = "alert", action = { type = "ok" } }, function(state)
    state.sawWarning = "ok"
    state.alert = nil
  end)
end)

test("a confirmation dialog is a destination case too", function()
  local store = test.store(Meeting)
  store:send({ type = "optionsTapped" }, function(state)
    state.destination = { screen = "options", state = lunar.confirmationDialog {
      title = "Options", titleVisibility = "visible",
      buttons = { { label = "Rename", action = { type = "rename" } }, { label = "Cancel", role = "cancel" } },
    } }
  end)
  store:send({ type = "destination", action = { type = "options", action = { type = "rename" } } }, function(state)
    state.title = "Daily!"
    state.destination = nil
  end)
end)

test("a binding sets the field before the parent sees it", function()
  local store = test.store(Meeting)
  store:send({ type = "binding", path = "title", value = "Retro" }, function(state)
    state.title = "Retro"
    state.bound = "title=Retro (title Retro)"
  end)
  store:send({ type = "binding", path = "settings.duration", value = 10 }, function(state)
    state.settings.duration = 10
    state.bound = "settings.duration=10 (title Retro)"
  end)
  store:send({ type = "binding", path = "note", value = "n" }, function(state)
    state.note = "n"
    state.bound = "note=n (title Retro)"
  end)
  store:send({ type = "binding", path = "note" }, function(state)
    state.note = nil
    state.bound = "note=nil (title Retro)"
  end)
end)

test("a case's binding is wrapped like its other actions", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send(edit { type = "binding", path = "title", value = "Planning" }, function(state)
    state.destination.state.title = "Planning"
  end)
  store:send(edit { type = "save" }, function(state)
    state.title = "Planning"
    state.destination = nil
  end)
end)

test("push and popFrom are actions of the stack", function()
  local store = test.store(Meeting)
  store:send({ type = "path", action = { type = "push", screen = "detail", state = { title = "a" } } }, function(state)
    state.path = { { id = 0, screen = "detail", state = { title = "a" } } }
    state.sawStack = "push 1"
  end)
  store:send({ type = "path", action = { type = "push", id = 1, screen = "detail" } }, function(state)
    state.path[2] = { id = 1, screen = "detail", state = { title = "", ticks = 0 } }
    state.sawStack = "push 2"
  end)
  store:send({ type = "path", id = 1, action = { type = "start" } })
  store:send({ type = "path", action = { type = "popFrom", id = 0 } }, function(state)
    state.path = {}
    state.sawStack = "popFrom 2"
  end)
  store:advance(1)
  store:send({ type = "path", action = { type = "push", screen = "detail" } }, function(state)
    state.path = { { id = 2, screen = "detail", state = { title = "", ticks = 0 } } }
    state.sawStack = "push 1"
  end)
end)

test("the view renders an alert", function()
  local alertText = lunar.alertText(lunar.alert {
    title = "Delete?", message = "Sure?",
    buttons = { { label = "Delete", role = "destructive", action = { type = "confirmDeletion" } }, { label = "Cancel" } },
  })
  local expected = "[Delete?]\nSure?\n(Delete, destructive) -> confirmDeletion  (Cancel) -> dismiss"
  if alertText ~= expected then error("got " .. alertText, 0) end
end)

-- Mistakes: each fails, and DestinationTests.swift checks the message.

test("an action for a case that is not presented", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send(alert { type = "confirmDeletion" })
end)

test("an action for an unknown case", function()
  local store = test.store(Meeting)
  store:send({ type = "editTapped" }, function(state)
    state.destination = { screen = "edit", state = { title = "Daily", ticks = 0 } }
  end)
  store:send { type = "destination", action = { type = "edti", action = { type = "save" } } }
end)

test("an action no button of the alert sends", function()
  local store = test.store(Meeting)
  store:send({ type = "deleteTapped" }, function(state) state.destination = { screen = "alert", state = DELETE } end)
  store:send(alert { type = "confirmDelete" })
end)

test("a binding of an undeclared path", function()
  local store = test.store(Meeting)
  store:send { type = "binding", path = "titel", value = "x" }
end)

test("a binding of the wrong type", function()
  local store = test.store(Meeting)
  store:send { type = "binding", path = "settings.duration", value = "long" }
end)

test("a push with an id that is not the next", function()
  local store = test.store(Meeting)
  store:send { type = "path", action = { type = "push", id = 5, screen = "detail" } }
end)

test("a popFrom of an id not on the stack", function()
  local store = test.store(Meeting)
  store:send { type = "path", action = { type = "popFrom", id = 3 } }
end)

test("a button without a label", function()
  lunar.alert { title = "x", buttons = { { role = "cancel" } } }
end)

test("a button of an unknown role", function()
  lunar.alert { title = "x", buttons = { { label = "Go", role = "destroy" } } }
end)
