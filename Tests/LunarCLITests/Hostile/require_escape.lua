-- A script that requires a module outside its folder.
local lunar = require "lunar"
local outside = require("../x")

return lunar.feature {
  name = "RequireEscape",
  initial = { count = 0 },
  reduce = function(state, action) end,
}
