-- `lunar.test`: exhaustive tests of features, from Lua. Each test runs as a coroutine that the host
-- drives; a store operation yields to Swift, which runs the feature in a TestStore and resumes the
-- test once the operation (and its assertions) are done.
local base = require "lunar._base"
local whereCalled = require("lunar._where").called
local describe, isFeature, checkAction = base.describe, base.isFeature, base.checkAction
local type, setmetatable, error, pairs = type, setmetatable, error, pairs
local cyield, tpack, tunpack = coroutine.yield, table.pack, table.unpack

local TEST = "lunar.test"
local handles, nextHandle = {}, 0
local registered = {}

local function handle(value)
  if value == nil then return nil end
  nextHandle = nextHandle + 1
  handles[nextHandle] = value
  return nextHandle
end

-- Asks the host to do `op`; the host resumes with (true, results…) or (false, message) for misuse.
local function request(op, ...)
  local results = tpack(cyield(TEST, op, ...))
  if results[1] == false then error(results[2], 3) end
  return tunpack(results, 2, results.n)
end

local test = {}

local Store = {}
Store.__index = Store
Store.__name = "lunar.test.store"

--- test.store(feature [, { initial = {…}, deps = {…}, exhaustive = true, clients = { "name", … }, timeout = 1 }])
function test.store(feature, options)
  if not isFeature(feature) then
    error("test.store expects a feature (what lunar.feature returns), got " .. describe(feature), 2)
  end
  if options ~= nil and type(options) ~= "table" then
    error("test.store's options must be a table like { initial = {…}, deps = {…} }", 2)
  end
  options = options or {}
  local overrides = {}
  local function flatten(prefix, t)
    for key, value in pairs(t) do
      local name = prefix == "" and key or (prefix .. "." .. key)
      if type(value) == "table" then
        flatten(name, value)
      elseif type(value) == "function" then
        overrides[name] = value
      else
        error("test.store: deps." .. name .. " must be a function (a mock), got " .. describe(value), 4)
      end
    end
  end
  if options.deps ~= nil then
    if type(options.deps) ~= "table" then error("test.store: deps must be a table of mocks", 2) end
    flatten("", options.deps)
  end
  local initial, build = options.initial, nil
  if type(initial) == "function" then
    initial, build = nil, handle(initial)
  elseif initial ~= nil and type(initial) ~= "table" then
    error("test.store: initial must be a state table (or a function(deps) returning one), got " ..
      describe(initial), 2)
  end
  local real = options.clients
  if real ~= nil then
    if type(real) ~= "table" then
      error("test.store: clients must be a list of the clients to run for real, like { \"factClient\" }", 2)
    end
    for _, name in ipairs(real) do
      if type(name) ~= "string" then
        error("test.store: clients lists client names (strings), got " .. describe(name), 2)
      end
    end
  end
  local timeout = options.timeout
  if timeout ~= nil and (type(timeout) ~= "number" or timeout ~= timeout or timeout <= 0 or timeout > 3600) then
    error("test.store: timeout is how long receive and finish wait for effects, in seconds (above 0, at most " ..
      "3600), got " .. describe(timeout), 2)
  end
  local id = request("store", handle(feature), initial, handle(overrides),
    options.exhaustive ~= false, real, timeout, build, whereCalled(2))
  return setmetatable({ id = id, feature = feature }, Store)
end

--- store:send(action [, function(state) … end]): sends `action`; the function turns the state
--- before into the state you expect after.
-- Refuses an action the store's feature does not declare (when it declares its actions).
local function checkDeclared(store, action, what)
  local problem = base.hooks.validateAction(store.feature, action)
  if problem ~= nil then error(what .. ": " .. problem, 3) end
end

function Store:send(action, expect)
  checkAction(action, "store:send", 2)
  checkDeclared(self, action, "store:send")
  if expect ~= nil and type(expect) ~= "function" then
    error("store:send's second argument must be a function(state), got " .. describe(expect), 2)
  end
  request("send", self.id, action, handle(expect), whereCalled(2))
end

--- store:receive(type | action | predicate [, function(state) … end])
function Store:receive(matcher, expect)
  local kind, value
  if type(matcher) == "string" then
    kind, value = "type", matcher
    local declared = base.hooks.declaredTypes(self.feature)
    if declared ~= nil then
      local known = false
      for _, name in ipairs(declared) do known = known or name == matcher end
      if not known then
        error("store:receive: unknown action " .. describe(matcher) .. base.hooks.suggestion(matcher, declared) ..
          "; " .. self.feature.name .. " declares " .. table.concat(declared, ", "), 2)
      end
    end
  elseif type(matcher) == "table" then
    checkAction(matcher, "store:receive", 2)
    checkDeclared(self, matcher, "store:receive")
    kind, value = "action", matcher
  elseif type(matcher) == "function" then
    kind, value = "predicate", handle(matcher)
  else
    error("store:receive expects an action type, an action or a predicate, got " .. describe(matcher), 2)
  end
  if expect ~= nil and type(expect) ~= "function" then
    error("store:receive's second argument must be a function(state), got " .. describe(expect), 2)
  end
  request("receive", self.id, kind, value, handle(expect), whereCalled(2))
end

--- store:advance(seconds): moves the test clock forward, running what was waiting on it.
function Store:advance(seconds)
  if type(seconds) ~= "number" or seconds < 0 then
    error("store:advance expects seconds ≥ 0, got " .. describe(seconds), 2)
  end
  request("advance", self.id, seconds, whereCalled(2))
end

--- store:finish(): waits for every effect to end, and fails if one is still running.
function Store:finish() request("finish", self.id, whereCalled(2)) end

--- store:skipReceived(): accepts the actions received so far without asserting on them.
function Store:skipReceived() request("skipReceived", self.id, whereCalled(2)) end

--- store:skipInFlight(): stops waiting for the effects still running (they are not cancelled).
function Store:skipInFlight() request("skipInFlight", self.id, whereCalled(2)) end

--- store:state(): a copy of the state as of the last send, receive or skip.
function Store:state() return request("state", self.id, whereCalled(2)) end

setmetatable(test, {
  --- test(name, function() … end): declares a test.
  __call = function(_, name, fn)
    if type(name) ~= "string" or type(fn) ~= "function" then
      error("a test is declared as test(\"name\", function() … end)", 2)
    end
    registered[#registered + 1] = { name = name, fn = fn, at = whereCalled(2) }
  end,
  __newindex = function() error("lunar.test is read-only", 2) end,
})

-- The host's side.
local testing = { TEST = TEST }

--- The tests declared since the last call, as { name, at, fn = handle }.
function testing.take()
  local list = {}
  for i, entry in ipairs(registered) do
    list[i] = { name = entry.name, at = entry.at, fn = handle(entry.fn) }
    registered[i] = nil
  end
  return list
end

function testing.value(id) return handles[id] end

function testing.clear()
  handles = {}
end

--- Applies an expectation function to a copy of the state; returns the expected state.
function testing.expect(id, state)
  local fn = handles[id]
  local result = fn(state)
  if result ~= nil then return result end
  return state
end

function testing.matches(id, action)
  return handles[id](action) and true or false
end

function testing.isStore(value)
  return getmetatable(value) == Store
end

return {
  test = test,
  testing = testing,
  -- NB: for the host's check that the definitions for editors (types/) declare every method.
  methods = { ["lunar.TestStore"] = Store },
}
