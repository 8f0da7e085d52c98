-- Todos: rows (lunar.forEach), a filter, an edit sheet (lunar.ifLet), and a list that persists
-- itself: `todos` is shared state (lunar.shared, storage = "file"), saved as JSON in the user's data
-- folder after every change and loaded when the app starts. A backup also goes to the `storage`
-- client once the changes pause for a second (a debounce), cancelling a backup still in flight
-- when a newer one starts.
local lunar = require "lunar"
local Todo = require "todo"
local Edit = require "edit"
local view = require "view"
local fx = lunar.fx

local FILTERS = { all = true, active = true, done = true }
local PAUSE = 1                          -- seconds without changes before a backup
local WAIT = "backup.debounce"           -- the wait before a backup
local BACKUP = "backup.request"          -- the backup in flight

-- The rows as plain values: effects run later and must never keep `state`.
local function rowsOf(todos)
  local rows = {}
  for i, todo in ipairs(todos) do rows[i] = { id = todo.id, title = todo.title, done = todo.done } end
  return rows
end

local function scheduleBackup()
  return fx.debounce(WAIT, PAUSE, { type = "backup" })
end

local function backup(rows, deps)
  return fx.run(function(send)
    deps.storage.set("backup", rows)
    send { type = "backedUp" }
  end, {
    catch = function(err, send) send { type = "backupFailed", message = tostring(err) } end,
  }):cancellable(BACKUP, { cancelInFlight = true })
end

local function indexOf(todos, id)
  for i, todo in ipairs(todos) do
    if todo.id == id then return i end
  end
end

-- The next free id: one more than the largest (the list is persisted, so ids are kept with it).
local function nextId(todos)
  local id = 1
  for _, todo in ipairs(todos) do
    if type(todo.id) == "number" and todo.id >= id then id = todo.id + 1 end
  end
  return id
end

-- The list's own reducer. Row and sheet actions reach it after the child ran.
local function reduce(state, action, deps)
  local t = action.type
  if t == "todos" then
    return scheduleBackup()                      -- a row changed (toggled)

  elseif t == "add" then
    local title = action.title or ""
    if title == "" then return end
    state.todos[#state.todos + 1] = { id = nextId(state.todos), title = title, done = false }
    return scheduleBackup()

  elseif t == "delete" then
    local i = indexOf(state.todos, action.id)
    if i == nil then return end
    table.remove(state.todos, i)                 -- its effects are cancelled
    if state.editing and state.editing.id == action.id then state.editing = nil end
    return scheduleBackup()

  elseif t == "clearCompleted" then
    local kept = {}
    for _, todo in ipairs(state.todos) do
      if not todo.done then kept[#kept + 1] = todo end
    end
    state.todos = kept
    return scheduleBackup()

  elseif t == "backup" then
    state.backingUp = true
    state.backupError = nil
    return backup(rowsOf(state.todos), deps)

  elseif t == "backedUp" then
    state.backingUp = false

  elseif t == "backupFailed" then
    state.backingUp = false
    state.backupError = action.message

  elseif t == "filter" then
    if FILTERS[action.filter] then state.filter = action.filter end

  elseif t == "edit" then
    local i = indexOf(state.todos, action.id)
    if i == nil then return end
    state.editing = Edit:initialWith { id = action.id, title = state.todos[i].title }

  elseif t == "editing" and action.action.type == "save" then
    local i = indexOf(state.todos, state.editing.id)
    local title = state.editing.title
    state.editing = nil
    if i == nil or title == "" or title == state.todos[i].title then return end
    state.todos[i].title = title
    return scheduleBackup()
  end
end

return lunar.feature {
  name = "Todos",
  initial = { filter = "all", backingUp = false },
  -- Its own actions; those of a row ({ type = "todos", id = …, action = … }) and of the sheet
  -- ({ type = "editing", action = … }) are declared by Todo and Edit.
  actions = {
    add = { title = "string?" },
    delete = { id = "integer" },
    clearCompleted = {},
    backup = {},
    backedUp = {},
    backupFailed = { message = "string" },
    filter = { filter = "string" },
    edit = { id = "integer" },
  },
  shared = {
    todos = lunar.shared("todos", { default = lunar.array(), storage = "file" }),
  },
  body = {
    lunar.forEach("todos", Todo),
    lunar.ifLet("editing", Edit),
    lunar.reduce(reduce),
  },
  view = view,
}
