-- A feature that declares its actions and their fields.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Tasks",
  initial = { titles = {} },
  actions = {
    add = { title = "string", note = "string?" },
    load = {},
    loaded = { titles = "table" },
    misspell = {},
    misspellLater = {},
  },
  reduce = function(state, action)
    if action.type == "add" then
      state.titles[#state.titles + 1] = action.title
    elseif action.type == "load" then
      return fx.send { type = "loaded", titles = { "a" } }
    elseif action.type == "loaded" then
      state.titles = action.titles
    elseif action.type == "misspell" then
      return fx.send { type = "loadd", titles = {} }
    elseif action.type == "misspellLater" then
      return fx.run(function(send)
        send { type = "loaded", titles = "a" }
      end)
    end
  end,
}
