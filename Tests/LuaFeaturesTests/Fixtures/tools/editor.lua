local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Editor",
  initial = { text = "", saved = false, log = 0 },
  reduce = function(state, action)
    if action.type == "edit" then
      state.text = action.text
    elseif action.type == "save" then
      state.saved = true
      return fx.dismiss()
    elseif action.type == "touch" then
      state.log = state.log + 1
      return fx.merge(fx.send { type = "edit", text = "touched" }, fx.send { type = "mark" })
    elseif action.type == "mark" then
      state.saved = false
    end
  end,
}
