-- A plugin of one feature and no plugin.lua: it asks for no capability.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Counter",
  initial = { count = 0 },
  reduce = function(state, action, deps)
    if action.type == "increment" then
      state.count = state.count + 1
    elseif action.type == "fetch" then
      return fx.run(function(send)
        local response = deps.http.get("http://127.0.0.1:1/count")
        send { type = "fetched", status = response.status }
      end, { catch = function(err, send) send { type = "failed", message = tostring(err) } end })
    elseif action.type == "failed" then
      state.failure = action.message
    end
  end,
  view = function(state) return "count: " .. state.count end,
}
