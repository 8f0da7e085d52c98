-- Assigning a table already in the state stores a copy: writing through one never changes the other.
local lunar = require "lunar"
return lunar.feature {
  name = "Alias",
  initial = { a = { v = 1 } },
  reduce = function(state, action)
    if action.type == "alias" then
      state.b = state.a
      state.b.v = 2
    elseif action.type == "aliasInList" then
      state.list = { state.a, state.a }
      state.list[1].v = 3
    end
  end,
}
