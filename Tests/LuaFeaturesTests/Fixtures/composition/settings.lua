-- A stack destination that is itself composed: it scopes a Counter.
local lunar = require "lunar"
local fx = lunar.fx
local Counter = require "counter"

return lunar.feature {
  name = "Settings",
  initial = { volume = 5, counter = { count = 0 } },
  body = {
    lunar.scope("counter", Counter),
    lunar.reduce(function(state, action)
      if action.type == "louder" then
        state.volume = state.volume + 1
      elseif action.type == "close" then
        return fx.dismiss()
      end
    end),
  },
}
