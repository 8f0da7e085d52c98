-- Persist: a file-backed shared value, and actions that write what JSON can and cannot hold.
local lunar = require "lunar"

return lunar.feature {
  name = "Persist",
  initial = { edits = 0 },
  shared = {
    settings = lunar.shared("persist-settings", { default = { ratio = 1, title = "untitled" }, storage = "file" }),
  },
  reduce = function(state, action)
    state.edits = state.edits + 1
    if action.type == "setRatio" then
      state.settings.ratio = action.ratio
    elseif action.type == "setTitle" then
      state.settings.title = action.title
    elseif action.type == "breakRatio" then
      state.settings.ratio = 0 / 0
    elseif action.type == "breakTitle" then
      state.settings.title = "caf\xE9"   -- Latin-1, not UTF-8
    end
  end,
}
