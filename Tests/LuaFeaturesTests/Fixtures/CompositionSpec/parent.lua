-- The parent of the composition spec: a child of every kind (scope, forEach, ifLet, stack, a
-- destination of a child or an alert), then
-- its own reducer, which records what it saw of them. The same feature as SpecParent in
-- SpecFeature.swift, written once in Lua; the scenarios are in scenarios.json.
local lunar = require "lunar"
local fx = lunar.fx
local Child = require "child"

local function find(list, id)
  for i, element in ipairs(list) do
    if element.id == id then return i, element end
  end
end

return lunar.feature {
  name = "Parent",
  initial = {
    counter = { count = 0 },
    rows = { { id = 1, count = 0 }, { id = 2, count = 0 } },
    path = {},
  },
  body = {
    lunar.scope("counter", Child),
    lunar.forEach("rows", Child),
    lunar.ifLet("detail", Child),
    lunar.stack("path", { child = Child }),
    lunar.destination("destination", { child = Child, alert = lunar.alert }),
    lunar.reduce(function(state, action)
      local child = action.action
      if action.type == "counter" and child.type == "increment" then
        state.parentSaw = state.counter.count
      elseif action.type == "rows" and child.type == "increment" then
        local _, row = find(state.rows, action.id)
        state.parentSaw = row.count
      elseif action.type == "rows" and child.type == "ping" then
        state.pinged = action.id
      elseif action.type == "rows" and child.type == "quit" then
        table.remove(state.rows, (find(state.rows, action.id)))
      elseif action.type == "detail" and child.type == "quit" then
        state.detail = nil
      elseif action.type == "path" and child.type == "quit" then
        for i = #state.path, (find(state.path, action.id)), -1 do state.path[i] = nil end
      elseif action.type == "detail" and child.type == "increment" then
        state.parentSaw = state.detail.count
      elseif action.type == "detail" and child.type == "dismiss" then
        state.parentSawDismiss = state.detail.count
      elseif action.type == "path" and child.type == "increment" then
        local _, element = find(state.path, action.id)
        state.parentSaw = element.state.count
      elseif action.type == "path" and child.type == "dismiss" then
        state.popped = action.id
      elseif action.type == "path" and child.type == "popFrom" then
        state.popped = child.id
      elseif action.type == "destination" and child.type == "alert" and child.action.type == "confirm" then
        state.confirmed = state.destination ~= nil
      elseif action.type == "showChild" then
        state.destination = { screen = "child", state = Child:initialWith { id = action.id } }
      elseif action.type == "showAlert" then
        state.destination = { screen = "alert", state = lunar.alert {
          title = "Sure?",
          buttons = {
            { label = "Yes", role = "destructive", action = { type = "confirm" } },
            { label = "No", role = "cancel" },
          },
        } }
      elseif action.type == "open" then
        state.detail = Child:initialWith { id = action.id }
      elseif action.type == "close" then
        state.detail = nil
      elseif action.type == "push" then
        lunar.push(state.path, "child")
      elseif action.type == "pop" then
        state.path[#state.path] = nil
      elseif action.type == "remove" then
        table.remove(state.rows, (find(state.rows, action.id)))
      elseif action.type == "clear" then
        state.rows = {}
      elseif action.type == "stopAll" then
        return fx.cancel("work")
      elseif action.type == "add" then
        state.rows[#state.rows + 1] = { id = action.id, count = 0 }
      end
    end),
  },
}
