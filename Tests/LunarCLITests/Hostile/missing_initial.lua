-- A feature without its initial state.
local lunar = require "lunar"

return lunar.feature {
  name = "MissingInitial",
  reduce = function(state, action) end,
}
