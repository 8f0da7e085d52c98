-- One row of the list. It knows nothing of the list: the list runs it with lunar.forEach and
-- receives its actions wrapped, { type = "todos", id = 3, action = { type = "toggle" } }.
local lunar = require "lunar"

return lunar.feature {
  name = "Todo",
  initial = { id = 0, title = "", done = false },
  actions = { toggle = {} },

  reduce = function(state, action)
    if action.type == "toggle" then
      state.done = not state.done
    end
  end,
}
