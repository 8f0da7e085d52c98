-- A feature with a syntax error on line 6.
local lunar = require "lunar"

return lunar.feature {
  name = "SyntaxError",
  initial = { count = = 0 },
  reduce = function(state, action) end,
}
