-- One row of a list: the child of lunar.forEach in app.lua. Every row uses the same id, "save".
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Todo",
  initial = { id = 0, title = "", done = false },
  reduce = function(state, action, deps)
    if action.type == "toggle" then
      state.done = not state.done
    elseif action.type == "startSave" then
      return fx.run(function(send)
        deps.clock.sleep(1)
        send { type = "saved" }
      end):cancellable("save")
    elseif action.type == "cancelSave" then
      return fx.cancel("save")
    elseif action.type == "saved" then
      state.saved = true
    end
  end,
}
