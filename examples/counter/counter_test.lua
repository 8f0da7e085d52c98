local test = require "lunar.test"
local Counter = require "feature"

test("increment and decrement change the count", function()
  local store = test.store(Counter)
  store:send({ type = "increment" }, function(state) state.count = 1 end)
  store:send({ type = "decrement" }, function(state) state.count = 0 end)
end)

test("a fact loads from the fact client", function()
  local store = test.store(Counter, {
    deps = { factClient = { fetch = function(n) return n .. " is a good number." end } },
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
    deps = { factClient = { fetch = function() error("offline", 0) end } },
  })
  store:send({ type = "factTapped" }, function(state) state.loading = true end)
  store:receive("factFailed", function(state)
    state.loading = false
    state.fact = "No fact today: offline"
  end)
end)

-- The real client, whose deps.http answers from the recordings in fixtures/http/.
test("the fact client asks numbersapi.com, answered here by its recording", function()
  local store = test.store(Counter, { initial = { count = 2, loading = false, timerRunning = false },
    clients = { "factClient" } })
  store:send({ type = "factTapped" }, function(state) state.loading = true end)
  store:receive("factLoaded", function(state)
    state.loading = false
    state.fact = "2 is the only even prime number."
  end)
end)

test("a number without a recording shows why as its fact", function()
  local store = test.store(Counter, { initial = { count = -1, loading = false, timerRunning = false },
    clients = { "factClient" } })
  local message
  store:send({ type = "factTapped" }, function(state) state.loading = true end)
  store:receive(function(action)
    message = action.message
    return action.type == "factFailed"
  end, function(state)
    state.loading = false
    state.fact = "No fact today: " .. message
  end)
  assert(message:find("no recorded response for GET http://numbersapi.com/-1", 1, true), message)
  assert(message:find("record it with --deps record", 1, true), message)
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
