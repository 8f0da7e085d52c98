-- A reducer that uses an effect that does not exist.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "UnknownEffect",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "bogus" then
      return fx.bogus(1)
    elseif action.type == "increment" then
      state.count = state.count + 1
    end
  end,
}
