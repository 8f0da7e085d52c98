-- A meeting with one destination (an edit form, a delete alert, an options dialog), a stack, and
-- bindings; its reducer records what it saw of them.
local lunar = require "lunar"
local Form = require "form"

local function deleteAlert()
  return lunar.alert {
    title = "Delete?",
    message = "Are you sure you want to delete this meeting?",
    buttons = {
      { label = "Delete", role = "destructive", action = { type = "confirmDeletion" } },
      { label = "Ask again", action = { type = "askAgain" } },
      { label = "Cancel", role = "cancel" },
    },
  }
end

return lunar.feature {
  name = "Meeting",
  initial = { title = "Daily", settings = { duration = 5 }, deleted = false, path = {} },
  body = {
    lunar.binding { title = "string", ["settings.duration"] = "integer", note = "string?" },
    lunar.destination("destination", { edit = Form, alert = lunar.alert, options = lunar.confirmationDialog }),
    lunar.ifLet("alert", lunar.alert),
    lunar.stack("path", { detail = Form }),
    lunar.reduce(function(state, action)
      local sub = action.action
      if action.type == "editTapped" then
        state.destination = { screen = "edit", state = Form:initialWith { title = state.title } }
      elseif action.type == "editOther" then
        state.destination = { screen = "edit", state = Form:initialWith { id = 2, title = "other" } }
      elseif action.type == "deleteTapped" then
        state.destination = { screen = "alert", state = deleteAlert() }
      elseif action.type == "optionsTapped" then
        state.destination = { screen = "options", state = lunar.confirmationDialog {
          title = "Options", titleVisibility = "visible",
          buttons = { { label = "Rename", action = { type = "rename" } }, { label = "Cancel", role = "cancel" } },
        } }
      elseif action.type == "warn" then
        state.alert = lunar.alert { title = "Careful", buttons = { { label = "OK", action = { type = "ok" } } } }
      elseif action.type == "clear" then
        state.destination = nil
      elseif action.type == "destination" and sub.type == "edit" and sub.action.type == "save" then
        state.title = state.destination.state.title
        state.destination = nil
      elseif action.type == "destination" and sub.type == "alert" then
        state.sawAlert = state.destination ~= nil and sub.action.type
        if sub.action.type == "confirmDeletion" then
          state.deleted = true
        elseif sub.action.type == "askAgain" then
          state.destination = { screen = "alert", state = deleteAlert() }
        end
      elseif action.type == "destination" and sub.type == "options" then
        state.title = state.title .. "!"
      elseif action.type == "destination" and sub.type == "dismiss" then
        state.sawDismiss = state.destination.screen
      elseif action.type == "alert" then
        state.sawWarning = sub.type
      elseif action.type == "binding" then
        state.bound = action.path .. "=" .. tostring(action.value) .. " (title " .. state.title .. ")"
      elseif action.type == "path" and action.id == nil then
        state.sawStack = sub.type .. " " .. #state.path
      end
    end),
  },
  view = function(state)
    if state.destination ~= nil and state.destination.screen ~= "edit" then
      return lunar.alertText(state.destination.state)
    end
    return state.title
  end,
}
