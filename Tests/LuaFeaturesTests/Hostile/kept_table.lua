-- A script keeps the table it stored, and writes to it in a later action that then fails: the
-- write must not reach the state (what was stored is a copy).
local lunar = require "lunar"
local kept = nil
return lunar.feature {
  name = "Keeper",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "store" then
      kept = { n = 1 }
      state.box = kept
    elseif action.type == "writeKept" then
      kept.n = 99
      state.count = state.count + 1
      error("undo this action") -- raise
    elseif action.type == "writeKeptQuietly" then
      kept.n = 42
    end
  end,
}
