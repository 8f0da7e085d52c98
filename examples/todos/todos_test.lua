local test = require "lunar.test"
local Todos = require "feature"

local function row(id, title, done)
  return { id = id, title = title, done = done or false }
end

local function twoRows()
  return { todos = { row(1, "milk"), row(2, "eggs") }, filter = "all" }
end

-- `todos` is shared state persisted to a file: in tests, each test starts from the default (an
-- empty list) and nothing touches the disk. A change is asserted like any other state change.

test("adding a todo", function()
  local store = test.store(Todos)
  store:send({ type = "add", title = "milk" }, function(state)
    state.todos = { row(1, "milk") }
  end)
  store:send { type = "add", title = "" }
end)

test("a row's toggle arrives wrapped", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state)
    state.todos[2].done = true
  end)
end)

test("the list is shared: a second store sees the change on its next action", function()
  local first = test.store(Todos, { initial = twoRows() })
  local second = test.store(Todos)
  first:send({ type = "todos", id = 1, action = { type = "toggle" } }, function(state)
    state.todos[1].done = true
  end)
  second:send({ type = "filter", filter = "done" }, function(state)
    state.todos[1].done = true
    state.filter = "done"
  end)
end)

test("new ids continue after the largest one", function()
  local store = test.store(Todos, { initial = { todos = { row(4, "bread", true), row(9, "jam") }, filter = "all" } })
  store:send({ type = "add", title = "tea" }, function(state)
    state.todos[3] = row(10, "tea")
  end)
  store:send({ type = "delete", id = 10 }, function(state) state.todos[3] = nil end)
  store:send({ type = "add", title = "tea" }, function(state)
    state.todos[3] = row(10, "tea")
  end)
end)

test("the filter chooses the rows the view shows", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state) state.todos[2].done = true end)
  store:send({ type = "filter", filter = "done" }, function(state) state.filter = "done" end)
  store:send { type = "filter", filter = "nonsense" }
  local text = Todos.view(store:state())
  assert(text == "  todos · 1 left · showing done\n  [x] 2. eggs", "view was:\n" .. text)
end)

test("clearing completed rows keeps the others as they were", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "todos", id = 1, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
  store:send({ type = "clearCompleted" }, function(state) state.todos = { row(2, "eggs") } end)
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
end)

test("the edit sheet saves a new title into its row", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "edit", id = 2 }, function(state) state.editing = { id = 2, title = "eggs" } end)
  store:send({ type = "editing", action = { type = "setTitle", title = "brown eggs" } }, function(state)
    state.editing.title = "brown eggs"
  end)
  store:send({ type = "editing", action = { type = "save" } }, function(state)
    state.editing = nil
    state.todos[2].title = "brown eggs"
  end)
end)

test("cancelling the sheet dismisses it and keeps the title", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "edit", id = 1 }, function(state) state.editing = { id = 1, title = "milk" } end)
  store:send({ type = "editing", action = { type = "setTitle", title = "oat milk" } }, function(state)
    state.editing.title = "oat milk"
  end)
  store:send { type = "editing", action = { type = "cancel" } }
  store:receive({ type = "editing", action = { type = "dismiss" } }, function(state) state.editing = nil end)
end)

test("deleting the row being edited closes the sheet", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "edit", id = 1 }, function(state) state.editing = { id = 1, title = "milk" } end)
  store:send({ type = "delete", id = 1 }, function(state)
    state.todos = { row(2, "eggs") }
    state.editing = nil
  end)
end)
