-- Two effects sleeping at once: a slow timer and a faster loop, whose actions interleave.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "TwoSleeps",
  initial = { log = "" },
  actions = { start = {}, tick = {}, beat = {} },
  reduce = function(state, action, deps)
    if action.type == "start" then
      return fx.merge(
        fx.run(function(send)
          for _ = 1, 2 do
            deps.clock.sleep(0.2)
            send { type = "tick" }
          end
        end),
        fx.run(function(send)
          for _ = 1, 3 do
            deps.clock.sleep(0.09)
            send { type = "beat" }
          end
        end))
    else
      state.log = state.log .. action.type:sub(1, 1)
    end
  end,
}
