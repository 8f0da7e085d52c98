-- Todos: rows (lunar.forEach), a filter, an edit sheet (lunar.ifLet), and a save to the storage
-- client that waits for a pause in the changes (a debounce) and cancels the save in flight when a
-- newer one starts.
local lunar = require "lunar"
local Todo = require "todo"
local Edit = require "edit"
local view = require "view"
local fx = lunar.fx

local PAUSE = 1                      -- seconds without changes before saving
local DEBOUNCE = "save.debounce"     -- the wait before a save
local SAVE = "save.request"          -- the save in flight
local FILTERS = { all = true, active = true, done = true }

local function indexOf(todos, id)
  for i, todo in ipairs(todos) do
    if todo.id == id then return i end
  end
end

-- The rows as plain values, for the save: effects run later and must never keep `state`.
local function snapshot(todos)
  local rows = {}
  for i, todo in ipairs(todos) do rows[i] = { id = todo.id, title = todo.title, done = todo.done } end
  return rows
end

local function scheduleSave()
  return fx.debounce(DEBOUNCE, PAUSE, { type = "save" })
end

local function save(rows, deps)
  return fx.run(function(send)
    deps.storage.save(rows)
    send { type = "saved" }
  end, {
    catch = function(err, send) send { type = "saveFailed", message = tostring(err) } end,
  }):cancellable(SAVE, { cancelInFlight = true })
end

-- The list's own reducer. Row and sheet actions reach it after the child ran.
local function reduce(state, action, deps)
  local t = action.type
  if t == "todos" then
    return scheduleSave()                          -- a row changed (toggled)

  elseif t == "add" then
    local title = action.title or ""
    if title == "" then return end
    state.todos[#state.todos + 1] = { id = state.nextId, title = title, done = false }
    state.nextId = state.nextId + 1
    return scheduleSave()

  elseif t == "delete" then
    local i = indexOf(state.todos, action.id)
    if i == nil then return end
    table.remove(state.todos, i)                 -- its effects are cancelled
    if state.editing and state.editing.id == action.id then state.editing = nil end
    return scheduleSave()

  elseif t == "clearCompleted" then
    local kept = {}
    for _, todo in ipairs(state.todos) do
      if not todo.done then kept[#kept + 1] = todo end
    end
    state.todos = kept
    return scheduleSave()

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
    return scheduleSave()

  elseif t == "save" then
    state.saving = true
    state.saveError = nil
    return save(snapshot(state.todos), deps)

  elseif t == "saved" then
    state.saving = false

  elseif t == "saveFailed" then
    state.saving = false
    state.saveError = action.message

  elseif t == "load" then
    return fx.run(function(send)
      send { type = "loaded", todos = deps.storage.load() }
    end):cancellable(SAVE)

  elseif t == "loaded" then
    local next = 1
    for _, todo in ipairs(action.todos or {}) do
      if type(todo.id) == "number" and todo.id >= next then next = todo.id + 1 end
    end
    state.todos = action.todos or {}
    state.nextId = next
  end
end

return lunar.feature {
  name = "Todos",
  initial = { todos = {}, nextId = 1, filter = "all", saving = false },
  body = {
    lunar.forEach("todos", Todo),
    lunar.ifLet("editing", Edit),
    lunar.reduce(reduce),
  },
  view = view,
}
