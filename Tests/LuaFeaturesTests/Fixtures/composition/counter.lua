-- A counter with a timer: the child of lunar.scope in app.lua.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Counter",
  initial = { count = 0 },
  reduce = function(state, action, deps)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "startTimer" then
      return fx.run(function(send)
        deps.clock.sleep(1)
        send { type = "tick" }
      end):cancellable("timer")
    elseif action.type == "stopTimer" then
      return fx.cancel("timer")
    elseif action.type == "tick" then
      state.count = state.count + 10
    end
  end,
}
