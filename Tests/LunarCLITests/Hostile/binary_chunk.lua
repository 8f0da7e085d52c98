-- A reducer that loads a binary chunk.
local lunar = require "lunar"

return lunar.feature {
  name = "BinaryChunk",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "load" then
      local f = function() return 1 end
      state.count = load(string.dump(f))()
    elseif action.type == "increment" then
      state.count = state.count + 1
    end
  end,
}
