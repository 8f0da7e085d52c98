-- The primitive `next` (reachable as the first result of `pairs` on a plain table) finds nothing
-- in a proxy, and the sandbox's `next` hands out proxies: no real table of the state leaks.
local lunar = require "lunar"
local rawnext = pairs({})
return lunar.feature {
  name = "Rows",
  initial = { rows = { { id = 1, done = false } } },
  reduce = function(state, action)
    if action.type == "rawNext" then
      local key, row = rawnext(state.rows)
      state.found = key == nil and row == nil
    elseif action.type == "nextThenFail" then
      local _, row = next(state.rows)
      row.done = true
      error("undo the write made through next") -- raise
    elseif action.type == "nextWrites" then
      local _, row = next(state.rows)
      row.done = true
    end
  end,
}
