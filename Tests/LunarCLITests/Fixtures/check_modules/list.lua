-- One of two features of a folder, each with its own tests: checking it judges its own tests only.
local lunar = require "lunar"

return lunar.feature {
  name = "List",
  initial = { count = 0 },
  actions = { add = {} },
  reduce = function(state, action)
    if action.type == "add" then state.count = state.count + 1 end
  end,
}
