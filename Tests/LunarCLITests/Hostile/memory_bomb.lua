-- A reducer that allocates without bound on `explode`.
local lunar = require "lunar"

return lunar.feature {
  name = "MemoryBomb",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "explode" then
      state.count = -1
      local hoard = {}
      local chunk = string.rep("x", 1024 * 1024)
      for i = 1, math.maxinteger do
        hoard[i] = chunk .. i
      end
    elseif action.type == "increment" then
      state.count = state.count + 1
    end
  end,
}
