-- An effect's `send` kept past the effect's end, then called from another effect: it would deliver
-- as if the ended effect had sent it. It raises instead.
local lunar = require "lunar"
local fx = lunar.fx

local kept

return lunar.feature {
  name = "KeptSend",
  initial = { late = false, own = false },
  reduce = function(state, action)
    if action.type == "keep" then
      return fx.run(function(send) kept = send end) -- keeper
    elseif action.type == "useKept" then
      return fx.run(function(send)
        kept { type = "late" } -- kept send
        send { type = "own" }
      end)
    elseif action.type == "late" then
      state.late = true
    elseif action.type == "own" then
      state.own = true
    end
  end,
}
