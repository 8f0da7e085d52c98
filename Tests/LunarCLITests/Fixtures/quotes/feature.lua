-- Quotes: a quote fetched through a Lua client over deps.http, or why it could not be.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Quotes",
  clients = { require "quote_client" },
  initial = {},
  reduce = function(state, action, deps)
    if action.type == "fetch" then
      local n = action.n
      return fx.run(function(send)
        send { type = "fetched", quote = deps.quoteClient.fetch(n) }
      end, {
        catch = function(err, send) send { type = "failed", message = tostring(err) } end,
      })
    elseif action.type == "fetched" then
      state.quote, state.error = action.quote, nil
    elseif action.type == "failed" then
      state.quote, state.error = nil, action.message
    end
  end,
}
