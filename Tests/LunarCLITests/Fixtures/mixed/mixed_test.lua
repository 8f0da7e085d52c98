local test = require "lunar.test"
local Mixed = require "feature"

test("increment adds one", function()
  local store = test.store(Mixed)
  store:send({ type = "increment" }, function(state) state.count = 1 end)
end)

test("decrement expects the wrong count", function()
  local store = test.store(Mixed)
  store:send({ type = "decrement" }, function(state) state.count = 5 end)
end)
