-- Ids from deps.uuid(): the same on every run with --seed, new ones without.
local lunar = require "lunar"

return lunar.feature {
  name = "Uuids",
  initial = { ids = {} },
  actions = { make = {} },
  reduce = function(state, action, deps)
    if action.type == "make" then state.ids[#state.ids + 1] = deps.uuid() end
  end,
}
