local test = require "lunar.test"
local Facts = require "feature"

test("a mocked client answers", function()
  local store = test.store(Facts, { deps = { factClient = { fetch = function(n) return n .. " is mocked" end } } })
  store:send { type = "factTapped" }
  store:receive("factLoaded", function(state) state.fact = "1 is mocked" end)
end)

test("the real client reads the recording", function()
  local store = test.store(Facts, { clients = { "factClient" } })
  store:send { type = "factTapped" }
  store:receive("factLoaded", function(state) state.fact = "1 is the loneliest number." end)
end)

test("an unmocked client fails the test", function()
  local store = test.store(Facts)
  store:send { type = "factTapped" }
  store:receive("factLoaded", function(state) state.error = "unused" end)
end)

test("a mock of a method the feature does not have is an error", function()
  local store = test.store(Facts, { deps = { factClient = { fetsh = function() return "" end } } })
  store:send { type = "label" }
end)

test("a client method called in the reducer that reaches http fails", function()
  local store = test.store(Facts, { clients = { "factClient" } })
  store:send { type = "factInReducer" }
end)
