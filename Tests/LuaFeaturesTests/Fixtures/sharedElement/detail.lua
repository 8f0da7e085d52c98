-- A screen holding one meeting of the shared list: its writes reach the list, and the list's
-- writes reach it.
local lunar = require "lunar"

return lunar.feature {
  name = "Detail",
  initial = {},
  shared = { syncUp = lunar.sharedElement("syncUps") },
  reduce = function(state, action)
    if action.type == "rename" then state.syncUp.title = action.title end
  end,
}
