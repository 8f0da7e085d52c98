local lunar = require "lunar"
local test = require "lunar.test"
local Todos = require "feature"

local function row(id, title, done)
  return { id = id, title = title, done = done or false }
end

-- A storage mock that remembers what was saved.
local function storageMock()
  local saves = {}
  local storage = {
    save = function(rows) saves[#saves + 1] = rows end,
    load = function() return { row(4, "bread", true), row(9, "jam") } end,
  }
  return storage, saves
end

-- Lua mocks answer at once. For a save that takes time, this copy of the feature hands its
-- `deps.clock` to the mock, which sleeps before answering.
local function withSlowSave(seconds, saves)
  local clock
  local spy = lunar.reduce(function(_, _, deps) clock = deps.clock end)
  local body = { spy }
  for i, entry in ipairs(Todos.body) do body[i + 1] = entry end
  local feature = lunar.feature { name = Todos.name, initial = Todos.initial, body = body }
  local storage = {
    save = function(rows)
      clock.sleep(seconds)
      saves[#saves + 1] = rows
    end,
  }
  return feature, storage
end

local function twoRows()
  return { todos = { row(1, "milk"), row(2, "eggs") }, nextId = 3, filter = "all", saving = false }
end

test("adding a todo saves after a pause", function()
  local storage, saves = storageMock()
  local store = test.store(Todos, { deps = { storage = storage } })
  store:send({ type = "add", title = "milk" }, function(state)
    state.todos = { row(1, "milk") }
    state.nextId = 2
  end)
  store:advance(1)
  store:receive("save", function(state) state.saving = true end)
  store:receive("saved", function(state) state.saving = false end)
  assert(#saves == 1 and saves[1][1].title == "milk", "expected one save of milk")
end)

test("a row's toggle arrives wrapped and schedules a save", function()
  local storage, saves = storageMock()
  local store = test.store(Todos, { initial = twoRows(), deps = { storage = storage } })
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state)
    state.todos[2].done = true
  end)
  store:advance(1)
  store:receive("save", function(state) state.saving = true end)
  store:receive("saved", function(state) state.saving = false end)
  assert(saves[1][2].done == true, "the save holds the toggled row")
end)

test("a burst of changes saves once, with the last state", function()
  local storage, saves = storageMock()
  local store = test.store(Todos, { initial = twoRows(), deps = { storage = storage } })
  store:send({ type = "todos", id = 1, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
  store:advance(0.5)
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state) state.todos[2].done = true end)
  store:advance(0.5)
  store:send({ type = "todos", id = 1, action = { type = "toggle" } }, function(state) state.todos[1].done = false end)
  store:advance(1)
  store:receive("save", function(state) state.saving = true end)
  store:receive("saved", function(state) state.saving = false end)
  assert(#saves == 1, "expected one save, got " .. #saves)
  assert(saves[1][1].done == false and saves[1][2].done == true, "the save holds the last state")
end)

test("a newer save cancels the one in flight", function()
  local saves = {}
  local feature, storage = withSlowSave(3, saves)
  local store = test.store(feature, { initial = twoRows(), deps = { storage = storage } })
  store:send({ type = "todos", id = 1, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
  store:advance(1)
  store:receive("save", function(state) state.saving = true end)
  store:advance(1)                          -- half-way through the first save
  store:send({ type = "add", title = "tea" }, function(state)
    state.todos[3] = row(3, "tea")
    state.nextId = 4
  end)
  store:advance(1)
  store:receive("save")                     -- cancels the first save, still in flight
  store:advance(3)
  store:receive("saved", function(state) state.saving = false end)
  assert(#saves == 1 and #saves[1] == 3, "only the second save completed")
end)

test("a failing save shows the error", function()
  local store = test.store(Todos, {
    initial = twoRows(),
    deps = { storage = { save = function() error("disk full", 0) end } },
  })
  store:send({ type = "delete", id = 1 }, function(state) state.todos = { row(2, "eggs") } end)
  store:advance(1)
  store:receive("save", function(state) state.saving = true end)
  store:receive("saveFailed", function(state)
    state.saving = false
    state.saveError = "disk full"
  end)
end)

test("the filter chooses the rows the view shows", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state) state.todos[2].done = true end)
  store:send({ type = "filter", filter = "done" }, function(state) state.filter = "done" end)
  store:send { type = "filter", filter = "nonsense" }
  local text = Todos.view(store:state())
  assert(text == "  todos · 1 left · showing done\n  [x] 2. eggs", "view was:\n" .. text)
  store:skipInFlight()
end)

test("clearing completed rows keeps the others as they were", function()
  local store = test.store(Todos, { initial = twoRows() })
  store:send({ type = "todos", id = 1, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
  store:send({ type = "clearCompleted" }, function(state) state.todos = { row(2, "eggs") } end)
  store:send({ type = "todos", id = 2, action = { type = "toggle" } }, function(state) state.todos[1].done = true end)
  store:skipInFlight()
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
  store:skipInFlight()
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
  store:skipInFlight()
end)

test("loading replaces the rows and continues the ids", function()
  local storage = storageMock()
  local store = test.store(Todos, { deps = { storage = storage } })
  store:send { type = "load" }
  store:receive("loaded", function(state)
    state.todos = { row(4, "bread", true), row(9, "jam") }
    state.nextId = 10
  end)
  store:send({ type = "add", title = "tea" }, function(state)
    state.todos[3] = row(10, "tea")
    state.nextId = 11
  end)
  store:skipInFlight()
end)
