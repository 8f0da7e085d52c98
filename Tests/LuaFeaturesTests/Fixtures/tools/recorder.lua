local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Recorder",
  clients = { require "speech_client" },
  initial = { transcript = "", ended = false },
  reduce = function(state, action, deps)
    if action.type == "start" then
      return fx.run(function(send)
        for text in deps.speech.start() do
          send { type = "heard", text = text }
        end
        send { type = "ended" }
      end):cancellable("speech")
    elseif action.type == "stop" then
      return fx.cancel("speech")
    elseif action.type == "heard" then
      state.transcript = state.transcript == "" and action.text or (state.transcript .. " " .. action.text)
    elseif action.type == "ended" then
      state.ended = true
    end
  end,
}
