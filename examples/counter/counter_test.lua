local test = require "lunar.test"
local Counter = require "feature"

test("increment and decrement change the count", function()
  local store = test.store(Counter)
  store:send({ type = "increment" }, function(state) state.count = 1 end)
  store:send({ type = "decrement" }, function(state) state.count = 0 end)
end)

test("a fact loads from the numberFact client", function()
  local store = test.store(Counter, {
    deps = { numberFact = { fetch = function(n) return n .. " is a good number." end } },
  })
  store:send({ type = "increment" }, function(state) state.count = 1 end)
  store:send({ type = "factTapped" }, function(state) state.loading = true end)
  store:receive("factLoaded", function(state)
    state.loading = false
    state.fact = "1 is a good number."
  end)
end)

test("a failing fact shows the error", function()
  local store = test.store(Counter, {
    deps = { numberFact = { fetch = function() error("offline", 0) end } },
  })
  store:send({ type = "factTapped" }, function(state) state.loading = true end)
  store:receive("factFailed", function(state)
    state.loading = false
    state.fact = "No fact today: offline"
  end)
end)

test("the timer ticks every second until stopped", function()
  local store = test.store(Counter)
  store:send({ type = "toggleTimer" }, function(state) state.timerRunning = true end)
  store:advance(1)
  store:receive("tick", function(state) state.count = 1 end)
  store:advance(1)
  store:receive("tick", function(state) state.count = 2 end)
  store:send({ type = "toggleTimer" }, function(state) state.timerRunning = false end)
end)
