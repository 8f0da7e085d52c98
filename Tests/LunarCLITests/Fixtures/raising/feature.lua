-- Raising: a counter whose test raises an error.
local lunar = require "lunar"

return lunar.feature {
  name = "Raising",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "decrement" then
      state.count = state.count - 1
    end
  end,
}
