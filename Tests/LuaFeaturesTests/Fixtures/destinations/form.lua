-- An edit form: a destination case, and a stack screen. It binds its title, ticks under "tick" and
-- closes itself.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Form",
  initial = { title = "", ticks = 0 },
  body = { lunar.binding { title = "string" }, lunar.reduce(function(state, action, deps)
    if action.type == "setTitle" then
      state.title = action.title
    elseif action.type == "start" then
      return fx.run(function(send)
        deps.clock.sleep(1)
        send { type = "tick" }
      end):cancellable("tick")
    elseif action.type == "tick" then
      state.ticks = state.ticks + 1
    elseif action.type == "close" then
      return fx.dismiss()
    end
  end) },
}
