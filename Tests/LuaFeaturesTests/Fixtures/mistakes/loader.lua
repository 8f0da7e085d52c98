-- A feature with the mistakes its tests must catch: an effect built and not returned, and an
-- effect that sends an action of another type than the test expects.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Loader",
  initial = { loading = false },
  reduce = function(state, action)
    if action.type == "load" then
      state.loading = true
      fx.run(function(send) send { type = "loaded", items = 3 } end)
    elseif action.type == "reload" then
      return fx.send { type = "loadedd", items = 3 }
    elseif action.type == "wait" then
      return fx.debounce("wait", 1, { type = "loaded", items = 0 })
    elseif action.type == "loaded" then
      state.loading = false
    end
  end,
}
