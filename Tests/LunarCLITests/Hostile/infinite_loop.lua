-- A reducer that never returns on `spin`.
local lunar = require "lunar"

return lunar.feature {
  name = "InfiniteLoop",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "spin" then
      state.count = -1
      while true do end
    elseif action.type == "increment" then
      state.count = state.count + 1
    end
  end,
}
