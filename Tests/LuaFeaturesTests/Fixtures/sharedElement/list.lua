-- A persisted list of meetings, a detail screen for one of them and a form for a new one.
local lunar = require "lunar"
local Detail = require "detail"
local Form = require "form"

return lunar.feature {
  name = "List",
  initial = function(deps) return { session = deps.uuid() } end,
  shared = { syncUps = lunar.shared("syncUps", { default = {}, storage = "file" }) },
  body = {
    lunar.ifLet("detail", Detail),
    lunar.ifLet("form", Form),
    lunar.reduce(function(state, action, deps)
      if action.type == "addTapped" then
        state.form = Form:initialWith({}, deps)
      elseif action.type == "confirmAdd" then
        state.syncUps[#state.syncUps + 1] = { id = state.form.id, title = state.form.title }
        state.form = nil
      elseif action.type == "open" then
        state.detail = Detail:initialWith { syncUp = state.syncUps[action.index] }
      elseif action.type == "delete" then
        table.remove(state.syncUps, action.index)
      end
    end),
  },
}
