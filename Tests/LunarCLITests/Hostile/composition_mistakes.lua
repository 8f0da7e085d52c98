-- A composed feature whose reducer breaks what composition needs (unique ids): the error names
-- the feature's reducer, not Lunar's composition code.
local lunar = require "lunar"

local Row = lunar.feature {
  name = "Row",
  initial = { done = false },
  reduce = function(state, action)
    if action.type == "toggle" then state.done = not state.done end
  end,
}

return lunar.feature {
  name = "CompositionMistakes",
  initial = { count = 0, rows = { { id = 1, done = false } } },
  body = {
    lunar.forEach("rows", Row),
    lunar.reduce(function(state, action)
      if action.type == "increment" then
        state.count = state.count + 1
      elseif action.type == "duplicate" then
        state.rows[2] = { id = 1, done = true }
      end
    end),
  },
}
