-- The action mix the benchmarks send, as a Lunar feature: the actions of the examples, each one
-- kind of change. `bench/redux_mix.lua` is the same mix written Redux-style in plain Lua.
--
--   increment    the counter's increment: count + 1 and fact = nil
--   setStatus    two scalar writes: loading and fact
--   setCity      a nested write: profile.address.city
--
-- The benchmarks send values that alternate, so that every write changes the state.
--   todos        an action for one row of the list, through lunar.forEach (the row toggles)
--   add, remove  a row appended to the list, a row removed by its id
--   factTapped   two writes and an effect (fx.run), as the counter's fact button
--
-- The state's `todos` rows are `{ id, title, done }`; the benchmark fills the list with as many
-- rows as it measures.
local lunar = require "lunar"
local fx = lunar.fx

local Todo = lunar.feature {
  name = "Todo",
  initial = { id = 0, title = "", done = false },
  reduce = function(state, action)
    if action.type == "toggle" then
      state.done = not state.done
    end
  end,
}

local function reduce(state, action)
  local t = action.type
  if t == "increment" then
    state.count = state.count + 1
    state.fact = nil
  elseif t == "factLoaded" then
    state.loading = false
    state.fact = action.fact
  elseif t == "setStatus" then
    state.loading = action.loading
    state.fact = action.fact
  elseif t == "setCity" then
    state.profile.address.city = action.city
  elseif t == "add" then
    local todos = state.todos
    local id = state.nextId + 1
    state.nextId = id
    todos[#todos + 1] = { id = id, title = action.title, done = false }
  elseif t == "remove" then
    -- NB: from the end, where the benchmark's removals find their row at once.
    local todos = state.todos
    for i = #todos, 1, -1 do
      if todos[i].id == action.id then
        table.remove(todos, i)
        break
      end
    end
  elseif t == "factTapped" then
    state.fact = nil
    state.loading = true
    local n = state.count
    return fx.run(function(send)
      send { type = "factLoaded", fact = n .. " is a number." }
    end)
  end
  return fx.none
end

return lunar.feature {
  name = "Mix",
  initial = {
    count = 0,
    fact = nil,
    loading = false,
    profile = { name = "Ada", address = { street = "1 Main Street", city = "Paris" } },
    todos = {},
    nextId = 0,
  },
  body = {
    lunar.forEach("todos", Todo),
    lunar.reduce(reduce),
  },
}
