-- A script that forgets to return its feature.
local lunar = require "lunar"

local feature = lunar.feature {
  name = "ReturnsNothing",
  initial = {},
  reduce = function(state, action) end,
}
