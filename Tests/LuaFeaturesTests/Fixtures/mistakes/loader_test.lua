local test = require "lunar.test"
local Loader = require "loader"

test("a dropped effect fails the test", function()
  local store = test.store(Loader)
  store:send({ type = "load" }, function(state) state.loading = true end)
end)

test("receive names the expected type and what arrived", function()
  local store = test.store(Loader)
  store:send({ type = "reload" })
  store:receive("loaded")
end)

test("receive of an action shows the closest", function()
  local store = test.store(Loader)
  store:send({ type = "reload" })
  store:receive({ type = "loaded", items = 3 })
end)

test("receive with nothing running fails at once", function()
  local store = test.store(Loader, { timeout = 3600 })
  store:send({ type = "loaded" })
  store:receive("loaded")
end)

test("receive while an effect waits on the clock advises what exists", function()
  local store = test.store(Loader, { timeout = 0.05 })
  store:send({ type = "wait" })
  store:receive("loaded")
  store:skipInFlight()
end)

test("an action JSON cannot hold is refused at the send", function()
  local store = test.store(Loader)
  store:send({ type = "reload", ratio = 0 / 0 })
end)
