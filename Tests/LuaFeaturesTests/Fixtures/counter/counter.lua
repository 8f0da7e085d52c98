local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Counter",
  initial = { count = 0, loading = false },
  reduce = function(state, action, deps)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "factTapped" then
      state.loading = true
      local n = state.count
      return fx.run(function(send)
        send { type = "factLoaded", fact = deps.numberFact.fetch(n) }
      end)
    elseif action.type == "factLoaded" then
      state.loading = false
      state.fact = action.fact
    elseif action.type == "tick" then
      return fx.run(function(send)
        deps.clock.sleep(1)
        send { type = "increment" }
      end)
    end
  end,
}
