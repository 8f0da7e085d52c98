local test = require "lunar.test"
local Counter = require "counter"

test("incrementing", function()
  local store = test.store(Counter)
  store:send({ type = "increment" }, function(state) state.count = 1 end)
end)

test("a fact loads through a mocked client", function()
  local store = test.store(Counter, { deps = { numberFact = { fetch = function(n) return n .. " is good" end } } })
  store:send({ type = "factTapped" }, function(state) state.loading = true end)
  store:receive("factLoaded", function(state)
    state.loading = false
    state.fact = "0 is good"
  end)
end)

test("the clock is a test clock", function()
  local store = test.store(Counter)
  store:send({ type = "tick" })
  store:advance(1)
  store:receive("increment", function(state) state.count = 1 end)
end)

test("a wrong expectation fails", function()
  local store = test.store(Counter)
  store:send({ type = "increment" }, function(state) state.count = 2 end)
end)
