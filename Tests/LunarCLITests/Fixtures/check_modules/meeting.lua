-- The other feature of the folder.
local lunar = require "lunar"

return lunar.feature {
  name = "Meeting",
  initial = { title = "" },
  actions = { rename = { title = "string" } },
  reduce = function(state, action)
    if action.type == "rename" then state.title = action.title end
  end,
}
