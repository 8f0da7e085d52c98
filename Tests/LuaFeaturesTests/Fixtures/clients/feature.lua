-- A feature whose fact comes from a Lua client.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Facts",
  clients = { require "fact_client" },
  initial = { n = 1 },
  reduce = function(state, action, deps)
    if action.type == "factTapped" then
      local n = state.n
      return fx.run(function(send)
        local ok, fact = pcall(deps.factClient.fetch, n)
        send { type = "factLoaded", fact = ok and fact or nil, error = not ok and fact or nil }
      end)
    elseif action.type == "factInReducer" then
      state.fact = deps.factClient.fetch(state.n)
    elseif action.type == "label" then
      state.label = deps.factClient.describe(state.n)
    elseif action.type == "factLoaded" then
      state.fact, state.error = action.fact, action.error
    end
  end,
}
