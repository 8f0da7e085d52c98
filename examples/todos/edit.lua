-- The edit sheet: a title field with Save and Cancel. The list presents it with lunar.ifLet and
-- applies the title when it sees { type = "editing", action = { type = "save" } }; Cancel closes
-- the sheet by itself, with fx.dismiss().
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Edit",
  initial = { id = 0, title = "" },
  actions = {
    setTitle = { title = "string?" },
    cancel = {},
    save = {},
  },

  reduce = function(state, action)
    if action.type == "setTitle" then
      state.title = action.title or ""
    elseif action.type == "cancel" then
      return fx.dismiss()
    end
    -- "save" is for the list: it copies the title into the row and closes the sheet.
  end,
}
