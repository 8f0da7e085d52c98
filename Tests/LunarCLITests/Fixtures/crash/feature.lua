-- Writes its shared, file-backed value on every action: the crash test kills the host mid-stream.
local lunar = require "lunar"

return lunar.feature {
  name = "Crash",
  initial = {},
  shared = {
    tally = lunar.shared("crash-tally", { default = { n = 0, padding = "" }, storage = "file" }),
  },
  reduce = function(state, action)
    if action.type == "bump" then
      state.tally.n = state.tally.n + 1
      -- NB: a larger document makes a torn write likelier if writes were not atomic.
      state.tally.padding = string.rep("x", 4096 + state.tally.n % 97)
    end
  end,
}
