-- lunar.test sends to children and receives from them by path: the wrapped actions.
local test = require "lunar.test"
local App = require "app"

test("a row is addressed by its id", function()
  local store = test.store(App)
  store:send({ type = "todos", id = 9, action = { type = "toggle" } }, function(state)
    state.todos[2].done = true
    state.lastToggled = 9
    state.parentSaw = true
  end)
end)

test("a row's effect comes back wrapped", function()
  local store = test.store(App)
  store:send { type = "todos", id = 7, action = { type = "startSave" } }
  store:advance(1)
  store:receive({ type = "todos", id = 7, action = { type = "saved" } }, function(state)
    state.todos[1].saved = true
  end)
end)

test("a stack entry is addressed by the id lunar.push gave it", function()
  local store = test.store(App)
  store:send({ type = "push", screen = "detail", state = { title = "a" } }, function(state)
    state.path = { { id = 0, screen = "detail", state = { title = "a" } } }
    state.pushed = 0
  end)
  store:send({ type = "path", id = 0, action = { type = "setTitle", title = "b" } }, function(state)
    state.path[1].state.title = "b"
  end)
  store:send { type = "path", id = 0, action = { type = "close" } }
  store:receive({ type = "path", action = { type = "popFrom", id = 0 } }, function(state)
    state.path = {}
    state.popped = 0
  end)
end)

test("a presented child dismisses itself after its effect", function()
  local store = test.store(App)
  store:send({ type = "open", title = "draft" }, function(state) state.detail = { title = "draft" } end)
  store:send { type = "detail", action = { type = "closeLater" } }
  store:advance(1)
  store:receive({ type = "detail", action = { type = "dismiss" } }, function(state)
    state.lastTitle = "draft"
    state.detail = nil
  end)
end)

test("a removed row's effect never arrives", function()
  local store = test.store(App)
  store:send { type = "todos", id = 7, action = { type = "startSave" } }
  store:send({ type = "remove", id = 7 }, function(state) table.remove(state.todos, 1) end)
  store:advance(5)
end)

test("a receive by type matches the wrapper", function()
  local store = test.store(App)
  store:send { type = "counter", action = { type = "startTimer" } }
  store:advance(1)
  store:receive("counter", function(state) state.counter.count = 10 end)
end)
