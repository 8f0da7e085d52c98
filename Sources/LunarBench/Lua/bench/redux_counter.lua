-- A Redux-style store in plain Lua: the yardstick `lunar-bench lua` compares Lunar against.
-- dispatch(action) -> reducer returns a shallow copy of the state with the change -> one listener.
-- Run: lua5.4 redux_counter.lua [iterations [repetitions]]   (prints nanoseconds per action, CPU time)
-- NB: os.clock counts CPU time; `lunar-bench lua` compares it with Lunar's CPU time.
local iterations = tonumber(arg and arg[1]) or 1000000
local repetitions = tonumber(arg and arg[2]) or 5

local function shallowCopy(t)
  local copy = {}
  for k, v in pairs(t) do copy[k] = v end
  return copy
end

local function reducer(state, action)
  if action.type == "increment" then
    local next = shallowCopy(state)
    next.count = state.count + 1
    return next
  elseif action.type == "decrement" then
    local next = shallowCopy(state)
    next.count = state.count - 1
    return next
  end
  return state
end

local function createStore(reduce, initial)
  local state, listeners = initial, {}
  local store = {}
  function store.getState() return state end
  function store.subscribe(fn) listeners[#listeners + 1] = fn end
  function store.dispatch(action)
    state = reduce(state, action)
    for i = 1, #listeners do listeners[i]() end
  end
  return store
end

-- NB: the same state as Lunar's side of the benchmark: a count and ten rows.
local items = {}
for i = 1, 10 do items[i] = { title = "item " .. i, done = false } end
local store = createStore(reducer, { count = 0, items = items })
local seen = 0
store.subscribe(function() seen = seen + 1 end)

local best = math.huge
for _ = 1, repetitions do
  local start = os.clock()
  for i = 1, iterations do
    store.dispatch { type = (i % 2 == 0) and "increment" or "decrement" }
  end
  local elapsed = os.clock() - start
  best = math.min(best, elapsed)
end
print(string.format("%.1f", best / iterations * 1e9))
