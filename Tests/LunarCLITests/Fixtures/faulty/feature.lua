-- Faulty: a counter whose `crash` action fails half-way through changing state.
local lunar = require "lunar"

return lunar.feature {
  name = "Faulty",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "crash" then
      state.count = 100
      local missing = nil
      state.total = missing.value
    end
  end,
}
