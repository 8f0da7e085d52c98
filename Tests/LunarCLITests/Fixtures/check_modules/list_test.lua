local test = require "lunar.test"
local List = require "list"

test("adding", function()
  local store = test.store(List)
  store:send({ type = "add" }, function(state) state.count = 1 end)
end)
