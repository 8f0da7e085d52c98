-- Actions JSON cannot hold, sent by effects of a feature that declares no actions: each is refused
-- where it is sent, naming the field, and nothing is reduced; the effect's next send arrives.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "UnwritableActions",
  initial = { got = false, own = false, asked = 0 },
  reduce = function(state, action)
    if action.type == "runNaN" then
      return fx.run(function(send)
        send { type = "got", n = 0 / 0 } -- refused: NaN
        send { type = "own" }
      end)
    elseif action.type == "sendBinary" then
      state.asked = state.asked + 1
      return fx.send { type = "got", note = "caf\xE9" } -- refused: not UTF-8
    elseif action.type == "got" then
      state.got = true
    elseif action.type == "own" then
      state.own = true
    end
  end,
}
