-- A counter that declares its actions: the prompt refuses others.
local lunar = require "lunar"

return lunar.feature {
  name = "Declared",
  initial = { count = 0 },
  actions = {
    increment = {},
    add = { amount = "integer" },
  },
  reduce = function(state, action)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "add" then
      state.count = state.count + action.amount
    end
  end,
}
