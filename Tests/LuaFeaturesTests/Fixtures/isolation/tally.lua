-- A feature that keeps a running total in a global and rolls dice: what a test must not carry
-- over to the next one.
local lunar = require "lunar"

return lunar.feature {
  name = "Tally",
  initial = {},
  reduce = function(_, action, deps)
    if action.type == "count" then
      total = (total or 0) + 1
      deps.seen.record(total)
    elseif action.type == "roll" then
      deps.seen.record(math.random(1000000))
    end
  end,
}
