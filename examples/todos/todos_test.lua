local test = require "lunar.test"
local Todos = require "feature"

local function row(id, title, done)
  return { id = id, title = title, done = done or false }
end

local function twoRows()
  return { todos = { row(1, "milk"), row(2, "eggs") }, filter = "all", backingUp = false }
end

-- `todos` is shared state persisted to a file: in tests, each test starts from the default (an
-- empty list) and nothing touches the disk. A change is asserted like any other state change.

test("adding a todo", function()
  local store = test.store(Todos)
  store:send({ type = "add", title = "milk" }, function(state)
    state.todos = { row(1, "milk") }
  end)
  store:send { type = "add", title = "" }
  store:skipInFlight()   -- the backup waiting on the clock: see the backup tests
end)

test("a row's toggle arrives wrapped", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state)
    state.todos[2].done = true
  end)
  store:skipInFlight()   -- the backup waiting on the clock: see the backup tests
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
  first:skipInFlight()
end)

test("new ids continue after the largest one", function()
  local store = test.store(Todos, {
    initial = { todos = { row(4, "bread", true), row(9, "jam") }, filter = "all", backingUp = false },
  })
  store:send({ type = "add", title = "tea" }, function(state)
    state.todos[3] = row(10, "tea")
  end)
  store:send({ type = "delete", id = 10 }, function(state) state.todos[3] = nil end)
  store:send({ type = "add", title = "tea" }, function(state)
    state.todos[3] = row(10, "tea")
  end)
  store:skipInFlight()   -- the backup waiting on the clock: see the backup tests
end)

test("the filter chooses the rows the view shows", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state) state.todos[2].done = true end)
  store:send({ type = "filter", filter = "done" }, function(state) state.filter = "done" end)
  store:send { type = "filter", filter = "nonsense" }
  local text = Todos.view(store:state())
  assert(text == "  todos · 1 left · showing done\n  [x] 2. eggs", "view was:\n" .. text)
  store:skipInFlight()   -- the backup waiting on the clock: see the backup tests
end)

test("clearing completed rows keeps the others as they were", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "todos", id = 1, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
  store:send({ type = "clearCompleted" }, function(state) state.todos = { row(2, "eggs") } end)
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
  store:skipInFlight()   -- the backup waiting on the clock: see the backup tests
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
  store:skipInFlight()   -- the backup waiting on the clock: see the backup tests
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
  store:skipInFlight()   -- the backup waiting on the clock: see the backup tests
end)

-- The backup: a debounced, cancellable save through the `storage` client.

local function slowStorage(saved)
  return {
    storage = {
      set = function(key, rows)
        assert(key == "backup", "the backup's key")
        saved[#saved + 1] = #rows
      end,
    },
  }
end

test("a burst of changes is backed up once, after a pause", function()
  local saved = {}
  local store = test.store(Todos, { initial = twoRows(), deps = slowStorage(saved) })
  store:send({ type = "add", title = "tea" }, function(state) state.todos[3] = row(3, "tea") end)
  store:advance(0.5)
  store:send({ type = "todos", id = 1, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
  store:advance(0.5)                       -- only half a second since the last change
  store:advance(0.5)
  store:receive("backup", function(state) state.backingUp = true end)
  store:receive("backedUp", function(state) state.backingUp = false end)
  assert(#saved == 1 and saved[1] == 3, "one backup of the three rows")
end)

test("a failing backup shows its error, and the next one clears it", function()
  local fail = true
  local store = test.store(Todos, { initial = twoRows(), deps = { storage = { set = function()
    if fail then error("disk full", 0) end
  end } } })
  store:send({ type = "add", title = "tea" }, function(state) state.todos[3] = row(3, "tea") end)
  store:advance(1)
  store:receive("backup", function(state) state.backingUp = true end)
  store:receive("backupFailed", function(state)
    state.backingUp = false
    state.backupError = "disk full"
  end)
  fail = false
  store:send({ type = "delete", id = 3 }, function(state) state.todos[3] = nil end)
  store:advance(1)
  store:receive("backup", function(state)
    state.backingUp = true
    state.backupError = nil
  end)
  store:receive("backedUp", function(state) state.backingUp = false end)
end)
