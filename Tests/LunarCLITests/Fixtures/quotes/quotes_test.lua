local test = require "lunar.test"
local Quotes = require "feature"

test("the real client answers the first quote", function()
  local store = test.store(Quotes, { clients = { "quoteClient" } })
  store:send { type = "fetch", n = 1 }
  store:receive("fetched", function(state) state.quote = "Simplicity is prerequisite for reliability." end)
end)
