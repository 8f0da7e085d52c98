-- Mistakes an author makes while writing a reducer: each error names the line that made it.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "AuthorMistakes",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "callback" then
      state.onTap = function() end
    elseif action.type == "nestedCallback" then
      state.rows = { { title = "a", onTap = function() end } }
    elseif action.type == "sendString" then
      return fx.send("increment")
    elseif action.type == "sendStringKept" then
      local effect = fx.send("increment")
      return effect
    elseif action.type == "effectRaises" then
      return fx.run(function()
        error("the server said no")
      end)
    elseif action.type == "dropEffect" then
      fx.run(function(send) send { type = "increment" } end)
    elseif action.type == "dropEffectAndFail" then
      fx.run(function(send) send { type = "increment" } end)
      error("failed after building an effect")
    elseif action.type == "returnEffect" then
      return fx.run(function() end)
    end
  end,
}
