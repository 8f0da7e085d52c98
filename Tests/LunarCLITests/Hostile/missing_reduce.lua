-- A feature without a reducer.
local lunar = require "lunar"

return lunar.feature {
  name = "MissingReduce",
  initial = { count = 0 },
}
