-- Reads the shared settings (and can grow the font).
local lunar = require "lunar"

return lunar.feature {
  name = "Preview",
  initial = { seen = "" },
  shared = {
    settings = lunar.shared("settings", { default = { theme = "light", size = 12 }, storage = "file" }),
  },
  reduce = function(state, action)
    if action.type == "look" then
      state.seen = state.settings.theme
    elseif action.type == "grow" then
      state.settings = { theme = state.settings.theme, size = state.settings.size + 1 }
    end
  end,
}
