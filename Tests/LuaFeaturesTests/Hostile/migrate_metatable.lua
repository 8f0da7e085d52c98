-- `migrate` obeys the rules of a reducer: a table with a metatable is refused, and the migration
-- is undone.
local lunar = require "lunar"
return lunar.feature {
  name = "Objects",
  initial = { count = 0 },
  reduce = function(state) state.count = state.count + 1 end,
  migrate = function(state)
    state.count = 100
    state.point = setmetatable({}, {}) -- refused
  end,
}
