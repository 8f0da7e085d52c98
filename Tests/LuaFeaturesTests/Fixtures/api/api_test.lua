local test = require "lunar.test"
local Timer = require "timer"

test("an unasserted change fails", function()
  local store = test.store(Timer)
  store:send({ type = "increment" }) -- unasserted change
end)

test("an unreceived action fails at the end", function()
  local store = test.store(Timer)
  store:send({ type = "bounce" })
end)

test("an effect still running fails at the end", function()
  local store = test.store(Timer)
  store:send({ type = "start" })
end)

test("non-exhaustive stores accept what is not asserted", function()
  local store = test.store(Timer, { exhaustive = false })
  store:send({ type = "increment" })
  store:send({ type = "bounce" })
  store:send({ type = "start" })
end)

test("skipReceived accepts received actions", function()
  local store = test.store(Timer)
  store:send({ type = "bounce" })
  store:skipReceived()
end)

test("skipInFlight cancels running effects", function()
  local store = test.store(Timer)
  store:send({ type = "start" })
  store:skipInFlight()
end)

test("an unmocked async dependency fails", function()
  local store = test.store(Timer)
  store:send({ type = "fetch" })
  store:finish()
end)

test("a mocked async dependency answers", function()
  local store = test.store(Timer, { deps = { numbers = { fetch = function(n) return "mocked " .. n end } } })
  store:send({ type = "fetch" })
  store:receive("fetched", function(state) state.value = "mocked 1" end)
end)

test("state() returns the current state", function()
  local store = test.store(Timer, { initial = { count = 40 } })
  store:send({ type = "increment" }, function(state) state.count = 41 end)
  local state = store:state()
  if state.count ~= 41 then error("state() gave " .. tostring(state.count)) end
end)

test("receive by type, by action and by predicate", function()
  local store = test.store(Timer)
  store:send({ type = "start" })
  store:advance(1)
  store:receive("tick", function(state) state.count = 2 end)
  store:send({ type = "bounce" })
  store:receive({ type = "increment" }, function(state) state.count = 3 end)
  store:send({ type = "bounce" })
  store:receive(function(action) return action.type == "increment" end, function(state) state.count = 4 end)
end)

test("receiving another action fails", function()
  local store = test.store(Timer)
  store:send({ type = "bounce" })
  store:receive("tick") -- wrong receive
end)

test("a Lua error in a test fails it with its line", function()
  local store = test.store(Timer)
  error("the test itself broke") -- test error
end)
