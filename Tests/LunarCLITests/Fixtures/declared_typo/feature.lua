-- A feature that declares its actions, and sends one it misspells.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Typo",
  initial = { count = 0 },
  actions = { increment = {}, later = {} },
  reduce = function(state, action)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "later" then
      return fx.send { type = "incremnt" }
    end
  end,
}
