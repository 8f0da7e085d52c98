local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Timer",
  initial = { count = 0 },
  reduce = function(state, action, deps)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "bounce" then
      return fx.send { type = "increment" }
    elseif action.type == "start" then
      return fx.run(function(send)
        deps.clock.sleep(1)
        send { type = "tick", by = 2 }
      end)
    elseif action.type == "tick" then
      state.count = state.count + action.by
    elseif action.type == "fetch" then
      return fx.run(function(send)
        send { type = "fetched", value = deps.numbers.fetch(1) }
      end)
    elseif action.type == "fetched" then
      state.value = action.value
    end
  end,
}
