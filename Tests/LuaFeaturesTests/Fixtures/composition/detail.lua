-- A sheet: presented by lunar.ifLet, or pushed on a stack. It closes itself with fx.dismiss().
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Detail",
  initial = { title = "" },
  reduce = function(state, action, deps)
    if action.type == "setTitle" then
      state.title = action.title
    elseif action.type == "load" then
      return fx.run(function(send)
        deps.clock.sleep(1)
        send { type = "loaded" }
      end):cancellable("load")
    elseif action.type == "loaded" then
      state.loaded = true
    elseif action.type == "close" then
      return fx.dismiss()
    elseif action.type == "closeLater" then
      return fx.concat(fx.run(function() deps.clock.sleep(1) end), fx.dismiss())
    end
  end,
}
