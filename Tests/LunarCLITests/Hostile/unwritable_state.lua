-- A reducer storing values JSON cannot write: each write is refused when made, so every event after
-- it (and the state a client sees) is still written.
local lunar = require "lunar"
return lunar.feature {
  name = "Unwritable",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "huge" then
      state.ratio = math.huge -- refused: infinity
    elseif action.type == "binary" then
      state.tags = { ["\255"] = true } -- refused: not UTF-8
    elseif action.type == "increment" then
      state.count = state.count + 1
    end
  end,
}
