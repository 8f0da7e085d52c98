-- Sets the theme of the shared settings.
local lunar = require "lunar"

return lunar.feature {
  name = "Theme",
  initial = { changes = 0 },
  shared = {
    settings = lunar.shared("settings", { default = { theme = "light", size = 12 }, storage = "file" }),
  },
  reduce = function(state, action)
    if action.type == "setTheme" then
      state.settings.theme = action.theme
      state.changes = state.changes + 1
    end
  end,
}
