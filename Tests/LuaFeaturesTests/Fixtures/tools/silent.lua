local lunar = require "lunar"

return lunar.feature {
  name = "Silent",
  initial = { n = 0 },
  actions = {},
  reduce = function() end,
}
