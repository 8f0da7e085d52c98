-- A parent of every kind of child. Its own reducer comes last, so children run first, and it
-- records what it saw of them.
local lunar = require "lunar"
local Counter = require "counter"
local Todo = require "todo"
local Detail = require "detail"
local Settings = require "settings"

local function indexOf(todos, id)
  for i, todo in ipairs(todos) do
    if todo.id == id then return i end
  end
end

return lunar.feature {
  name = "App",
  initial = {
    counter = { count = 0 },
    todos = { { id = 7, title = "milk", done = false }, { id = 9, title = "eggs", done = false } },
    path = {},
  },
  body = {
    lunar.scope("counter", Counter),
    lunar.forEach("todos", Todo),
    lunar.ifLet("detail", Detail),
    lunar.stack("path", { detail = Detail, settings = Settings }),
    lunar.reduce(function(state, action)
      local child = action.action
      if action.type == "counter" and child.type == "increment" then
        state.parentSaw = state.counter.count
      elseif action.type == "todos" and child.type == "toggle" then
        state.lastToggled = action.id
        state.parentSaw = state.todos[indexOf(state.todos, action.id)].done
      elseif action.type == "detail" and child.type == "dismiss" then
        state.lastTitle = state.detail.title
      elseif action.type == "path" and child.type == "popFrom" then
        state.popped = child.id
      elseif action.type == "open" then
        state.detail = Detail:initialWith { title = action.title, id = action.id }
      elseif action.type == "close" then
        state.detail = nil
      elseif action.type == "push" then
        state.pushed = lunar.push(state.path, action.screen, action.state)
      elseif action.type == "pop" then
        state.path[#state.path] = nil
      elseif action.type == "remove" then
        table.remove(state.todos, indexOf(state.todos, action.id))
      elseif action.type == "clear" then
        state.todos = {}
      elseif action.type == "add" then
        state.todos[#state.todos + 1] = { id = action.id, title = action.title, done = false }
      elseif action.type == "corrupt" then
        state.path[#state.path + 1] = { id = 99, screen = "nowhere", state = {} }
      elseif action.type == "duplicate" then
        state.todos[#state.todos + 1] = { id = 7, title = "again", done = false }
      end
    end),
  },
}
