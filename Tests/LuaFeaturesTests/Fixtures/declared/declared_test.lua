local test = require "lunar.test"
local Tasks = require "tasks"
local List = require "list"

test("declared actions pass", function()
  local store = test.store(Tasks)
  store:send({ type = "add", title = "milk" }, function(state) state.titles = { "milk" } end)
  store:send({ type = "load" })
  store:receive("loaded", function(state) state.titles = { "a" } end)
end)

test("an unknown type", function()
  test.store(Tasks):send({ type = "ad", title = "milk" })
end)

test("an unknown field", function()
  test.store(Tasks):send({ type = "add", titel = "milk" })
end)

test("a field of the wrong type", function()
  test.store(Tasks):send({ type = "add", title = 3 })
end)

test("a missing field", function()
  test.store(Tasks):send({ type = "add" })
end)

test("receiving an unknown type", function()
  local store = test.store(Tasks)
  store:send({ type = "load" })
  store:receive("lodaed")
end)

test("an effect sending an unknown type", function()
  test.store(Tasks):send({ type = "misspell" })
end)

test("an effect's send of a bad field", function()
  local store = test.store(Tasks)
  store:send({ type = "misspellLater" })
  store:finish()
end)

test("a child's action is checked against the child", function()
  local store = test.store(List)
  store:send({ type = "rows", id = 1, action = { type = "toggle" } }, function(state) state.rows[1].done = true end)
  store:send({ type = "rows", id = 1, action = { type = "toggel" } })
end)
