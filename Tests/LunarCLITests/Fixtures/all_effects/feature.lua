-- AllEffects: names every effect of lunar.fx, so `lunar check` must know them all.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "AllEffects",
  initial = { count = 0 },
  reduce = function(state, action)
    local t = action.type
    if t == "none" then return fx.none
    elseif t == "send" then return fx.send { type = "none" }
    elseif t == "run" then return fx.run(function(send) send { type = "none" } end)
    elseif t == "merge" then return fx.merge(fx.none, fx.none)
    elseif t == "concat" then return fx.concat(fx.none, fx.none)
    elseif t == "cancel" then return fx.cancel("id")
    elseif t == "debounce" then return fx.debounce("id", 1, { type = "none" })
    elseif t == "throttle" then return fx.throttle("id", 1, { type = "none" })
    elseif t == "dismiss" then return fx.dismiss()
    end
  end,
}
