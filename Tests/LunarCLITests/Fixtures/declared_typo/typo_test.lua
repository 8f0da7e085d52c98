local test = require "lunar.test"
local Typo = require "feature"

test("later increments", function()
  local store = test.store(Typo)
  store:send({ type = "later" })
  store:receive("increment", function(state) state.count = 1 end)
  store:receive("incremetn")
end)
