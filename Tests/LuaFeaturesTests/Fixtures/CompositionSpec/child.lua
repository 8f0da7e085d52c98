-- The child of every composition in the spec (Tests/LuaFeaturesTests/CompositionSpec): the same
-- feature as SpecChild in SpecFeature.swift, written once in Lua. `ping` does nothing and `quit`
-- starts the work as `start` does: the parent reacts to them.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Child",
  initial = { count = 0 },
  reduce = function(state, action, deps)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "start" or action.type == "quit" then
      return fx.run(function(send)
        deps.clock.sleep(1)
        send { type = "tick" }
      end):cancellable("work")
    elseif action.type == "stop" then
      return fx.cancel("work")
    elseif action.type == "tick" then
      state.count = state.count + 10
    elseif action.type == "close" then
      return fx.dismiss()
    elseif action.type == "closeLater" then
      return fx.concat(fx.run(function() deps.clock.sleep(1) end), fx.dismiss())
    end
  end,
}
