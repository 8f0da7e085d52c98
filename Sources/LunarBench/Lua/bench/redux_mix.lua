-- The action mix of `bench/mix.lua`, written Redux-style in plain Lua: the yardstick Lunar is
-- measured against. A store whose reducer returns a new state for every change (shallow copies
-- along the changed path, as Redux asks), a listener called after every dispatch, and a thunk
-- middleware for the action with an effect. Rows are changed the Redux way: a new list, mapped.
--
-- `run` also drives Rodux's own Store (Roblox's Redux for Lua) when given it: `rodux` loads its
-- Store.lua outside Roblox.
local M = {}

local function copy(t)
  local c = {}
  for k, v in pairs(t) do
    c[k] = v
  end
  return c
end

local function todo(state, action)
  if action.type == "toggle" then
    local row = copy(state)
    row.done = not state.done
    return row
  end
  return state
end

-- The index of the row of `id` in `rows`, searched from the end (where the removals find theirs).
local function indexOf(rows, id)
  for i = #rows, 1, -1 do
    if rows[i].id == id then
      return i
    end
  end
  return nil
end

--- The reducer of the whole mix: `reducer(state, action) -> state`, never changing `state`.
function M.reducer(state, action)
  local t = action.type
  if t == "increment" then
    local next = copy(state)
    next.count = state.count + 1
    next.fact = nil
    return next
  elseif t == "factLoaded" then
    local next = copy(state)
    next.loading = false
    next.fact = action.fact
    return next
  elseif t == "setStatus" then
    local next = copy(state)
    next.loading = action.loading
    next.fact = action.fact
    return next
  elseif t == "setCity" then
    local address = copy(state.profile.address)
    address.city = action.city
    local profile = copy(state.profile)
    profile.address = address
    local next = copy(state)
    next.profile = profile
    return next
  elseif t == "todos" then
    -- NB: what lunar.forEach does for Lunar: the row's own reducer, for the row of that id. The
    --     list is copied whole (table.move, Lua's fastest copy), the row replaced.
    local i = indexOf(state.todos, action.id)
    if not i then
      return state
    end
    local todos = table.move(state.todos, 1, #state.todos, 1, {})
    todos[i] = todo(todos[i], action.action)
    local next = copy(state)
    next.todos = todos
    return next
  elseif t == "add" then
    local todos = table.move(state.todos, 1, #state.todos, 1, {})
    local id = state.nextId + 1
    todos[#todos + 1] = { id = id, title = action.title, done = false }
    local next = copy(state)
    next.todos = todos
    next.nextId = id
    return next
  elseif t == "remove" then
    local i = indexOf(state.todos, action.id)
    if not i then
      return state
    end
    local n = #state.todos
    local todos = table.move(state.todos, 1, i - 1, 1, {})
    table.move(state.todos, i + 1, n, i, todos)
    local next = copy(state)
    next.todos = todos
    return next
  elseif t == "factRequested" then
    local next = copy(state)
    next.fact = nil
    next.loading = true
    return next
  end
  return state
end

--- A Redux store: `store:dispatch(action)`, `store:getState()`, `store:subscribe(fn)`;
--- `middlewares` are Redux's `middleware(nextDispatch, store) -> dispatch`.
function M.createStore(reducer, initialState, middlewares)
  local store = { _state = initialState, _listeners = {} }
  function store.getState(self)
    return self._state
  end
  function store.subscribe(self, listener)
    self._listeners[#self._listeners + 1] = listener
  end
  local function dispatch(action)
    store._state = reducer(store._state, action)
    local listeners = store._listeners
    for i = 1, #listeners do
      listeners[i]()
    end
    return action
  end
  for i = #(middlewares or {}), 1, -1 do
    dispatch = middlewares[i](dispatch, store)
  end
  store.dispatch = function(_, action)
    return dispatch(action)
  end
  return store
end

--- Redux's thunk middleware: a function dispatched is called with the store.
function M.thunk(nextDispatch, store)
  return function(action)
    if type(action) == "function" then
      return action(store)
    end
    return nextDispatch(action)
  end
end

--- The counter example's state (examples/counter/feature.lua), for its own `increment`.
function M.counterState()
  return { count = 0, loading = false, timerRunning = false }
end

--- The state of the mix with `rows` rows (ids 1 to rows), as in bench/mix.lua.
function M.initialState(rows)
  local todos = {}
  for i = 1, rows do
    todos[i] = { id = i, title = "row " .. i, done = false }
  end
  return {
    count = 0,
    loading = false,
    profile = { name = "Ada", address = { street = "1 Main Street", city = "Paris" } },
    todos = todos,
    nextId = rows,
  }
end

-- The effect the thunk starts: kept, never run, as Lunar's benchmark cancels its effect's task.
M.scheduled = nil

--- The action creator of the counter's fact button: a thunk that updates the state and schedules
--- the fetch.
local function factTapped()
  return function(store)
    store:dispatch { type = "factRequested" }
    local n = store:getState().count
    M.scheduled = function()
      store:dispatch { type = "factLoaded", fact = n .. " is a number." }
    end
  end
end

--- The `i`th action of the workload `kind` over `rows` rows (the same as Lunar's workload sends).
local function increment()
  return { type = "increment" }
end

local actions = {
  counter = increment,
  increment = increment,
  twoWrites = function(i)
    -- NB: values that alternate, so that every write changes the state (for Lunar too).
    if i % 2 == 1 then
      return { type = "setStatus", loading = true, fact = "42 is a number." }
    end
    return { type = "setStatus", loading = false, fact = "43 is a number." }
  end,
  nested = function(i)
    return { type = "setCity", city = i % 2 == 1 and "Lyon" or "Paris" }
  end,
  toggleRow = function(_, rows)
    return { type = "todos", id = rows // 2, action = { type = "toggle" } }
  end,
  addRemove = function(i, rows)
    if i % 2 == 1 then
      return { type = "add", title = "milk" }
    end
    return { type = "remove", id = rows + i // 2 }
  end,
  effect = factTapped,
}

--- A store of the mix over `rows` rows (of the counter's state for `kind` "counter"): the plain
--- one (Store nil, with one listener) or Rodux's (`Store` from `rodux`), the thunk middleware in
--- both.
function M.makeStore(rows, Store, kind)
  local initial = kind == "counter" and M.counterState() or M.initialState(rows)
  if Store then
    return Store.new(M.reducer, initial, { M.thunk })
  end
  local store = M.createStore(M.reducer, initial, { M.thunk })
  local seen = 0
  store:subscribe(function()
    seen = seen + 1
  end)
  return store
end

--- Dispatches the actions `first` to `last` of `kind` over `rows` rows to `store`.
function M.dispatch(store, kind, rows, first, last)
  local action = assert(actions[kind], "unknown action kind " .. tostring(kind))
  for i = first, last do
    store:dispatch(action(i, rows))
  end
end

--- Dispatches `times` actions of `kind` to a new store over `rows` rows (see `makeStore`), checks
--- its state, and returns it.
function M.run(kind, rows, times, Store)
  local store = M.makeStore(rows, Store, kind)
  M.dispatch(store, kind, rows, 1, times)
  M.check(kind, rows, times, store:getState())
  return store
end

--- Raises unless `state` is what `times` actions of `kind` over `rows` rows make: a benchmark
--- whose actions failed would measure nothing.
function M.check(kind, rows, times, state)
  local odd = times % 2 == 1
  local ok
  if kind == "increment" or kind == "counter" then
    ok = state.count == times and state.fact == nil
  elseif kind == "twoWrites" then
    ok = state.loading == odd and state.fact == (odd and "42 is a number." or "43 is a number.")
  elseif kind == "nested" then
    ok = state.profile.address.city == (odd and "Lyon" or "Paris")
  elseif kind == "toggleRow" then
    ok = state.todos[rows // 2].done == odd and #state.todos == rows
  elseif kind == "addRemove" then
    ok = #state.todos == rows + (odd and 1 or 0) and state.nextId == rows + (times + 1) // 2
  elseif kind == "effect" then
    ok = state.loading == true and state.fact == nil and M.scheduled ~= nil
  end
  if not ok then
    error("the Redux-style store did not do what " .. times .. " actions of " .. kind .. " do", 0)
  end
end

--- Rodux's Store module from the text of its `Store.lua`, loaded outside Roblox: the few Roblox
--- globals it names at load time (`game`, `script`, `typeof`) are stood in for. Its change signal
--- fires on Roblox's frame event, which never comes here: dispatch is what is measured.
function M.rodux(source)
  local connection = { Disconnect = function() end }
  local heartbeat = {
    Connect = function()
      return connection
    end,
  }
  local signal = {
    new = function()
      return { fire = function() end, connect = function() end }
    end,
  }
  local parent = { Signal = signal, NoYield = function(fn, ...)
    return fn(...)
  end }
  local env = setmetatable({
    game = { GetService = function()
      return { Heartbeat = heartbeat }
    end },
    script = { Parent = parent },
    typeof = type,
    require = function(module)
      return module
    end,
  }, { __index = _G })
  local chunk = assert(load(source, "=rodux/Store.lua", "t", env))
  return chunk()
end

return M
