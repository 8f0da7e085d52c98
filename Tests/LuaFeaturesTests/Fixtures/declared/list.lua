-- A composed feature: its rows declare their actions, and the list its own.
local lunar = require "lunar"

local Row = lunar.feature {
  name = "Row",
  initial = { done = false },
  actions = { toggle = {} },
  reduce = function(state, action)
    if action.type == "toggle" then state.done = not state.done end
  end,
}

return lunar.feature {
  name = "List",
  initial = { rows = { { id = 1, done = false } } },
  actions = { clear = {} },
  body = {
    lunar.forEach("rows", Row),
    lunar.reduce(function(state, action)
      if action.type == "clear" then state.rows = {} end
    end),
  },
}
