-- `lunar.test`: exhaustive tests of features, from Lua. Each test runs as a coroutine that the host
-- drives; a store operation yields to Swift, which runs the feature in a TestStore and resumes the
-- test once the operation (and its assertions) are done.
local base = require "lunar._base"
local host = require "lunar._host"
local whereCalled = require("lunar._where").called
local describe, isFeature, checkAction = base.describe, base.isFeature, base.checkAction
local type, setmetatable, error, pairs, pcall = type, setmetatable, error, pairs, pcall
local cyield, tpack, tunpack = coroutine.yield, table.pack, table.unpack

local TEST = "lunar.test"
local handles, nextHandle = {}, 0
local registered = {}

-- The line that called the outermost test.helper running now: what store operations and errors
-- inside helpers report instead of their own lines.
local helperAt

-- Where the store operation being called was called from: the caller `level` frames up, or the
-- line that called the helper it runs in.
local function at(level)
  return helperAt or whereCalled(level + 1)
end

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
  -- NB: `test.store(require "feature")` passes `require`'s second result, where the module came
  --     from (a string): not options.
  if type(options) == "string" then options = nil end
  if options ~= nil and type(options) ~= "table" then
    error("test.store's options must be a table like { initial = {…}, deps = {…} }, got " .. describe(options), 2)
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
    options.exhaustive ~= false, real, timeout, build, at(2))
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
  request("send", self.id, action, handle(expect), at(2))
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
        local declares = #declared == 0 and " declares no actions" or (" declares " .. table.concat(declared, ", "))
        error("store:receive: unknown action " .. describe(matcher) .. base.hooks.suggestion(matcher, declared) ..
          "; " .. self.feature.name .. declares, 2)
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
  request("receive", self.id, kind, value, handle(expect), at(2))
end

--- store:advance(seconds): moves the test clock forward, running what was waiting on it.
function Store:advance(seconds)
  if type(seconds) ~= "number" or seconds < 0 then
    error("store:advance expects seconds ≥ 0, got " .. describe(seconds), 2)
  end
  request("advance", self.id, seconds, at(2))
end

--- store:finish(): waits for every effect to end, and fails if one is still running.
function Store:finish() request("finish", self.id, at(2)) end

--- store:skipReceived([{ print = true }]): accepts the actions received so far without asserting
--- on them; returns them (a list, oldest first), and prints them with `print = true`.
function Store:skipReceived(options)
  if options ~= nil and type(options) ~= "table" then
    error("store:skipReceived's options must be a table like { print = true }, got " .. describe(options), 2)
  end
  return request("skipReceived", self.id, options ~= nil and options.print == true, at(2))
end

--- store:skipInFlight(): stops waiting for the effects still running (they are not cancelled).
function Store:skipInFlight() request("skipInFlight", self.id, at(2)) end

--- store:state(): a copy of the state as of the last send, receive or skip.
function Store:state() return request("state", self.id, at(2)) end

--- store:assert(function(state) … end): asserts the state without sending an action (changes
--- made by effects to shared state, or after skipping received actions).
function Store:assert(expect)
  if type(expect) ~= "function" then
    error("store:assert expects a function(state) that turns the state into what you expect, got " ..
      describe(expect), 2)
  end
  request("assert", self.id, handle(expect), at(2))
end

--- store:isDismissed(): whether the feature dismissed itself (`fx.dismiss()` at the root); the
--- store then takes no more actions.
function Store:isDismissed() return request("isDismissed", self.id, at(2)) end

--- store:withExhaustivity("off" | "on" [, { showSkipped = true }], function() … end): runs the
--- function with the store exhaustive or not, then puts it back; returns what the function returns.
function Store:withExhaustivity(mode, options, fn)
  if fn == nil and type(options) == "function" then options, fn = nil, options end
  if mode ~= "on" and mode ~= "off" then
    error("store:withExhaustivity expects \"on\" or \"off\", got " .. describe(mode), 2)
  end
  if options ~= nil and type(options) ~= "table" then
    error("store:withExhaustivity's options must be a table like { showSkipped = true }, got " .. describe(options), 2)
  end
  if type(fn) ~= "function" then
    error("store:withExhaustivity runs a function: store:withExhaustivity(\"off\", function() … end), got " ..
      describe(fn), 2)
  end
  local showSkipped = options ~= nil and options.showSkipped == true
  local previous = request("exhaustivity", self.id, mode, showSkipped, at(2))
  local results = tpack(pcall(fn))
  request("exhaustivity", self.id, previous.mode, previous.showSkipped, at(2))
  if not results[1] then error(results[2], 0) end
  return tunpack(results, 2, results.n)
end

--- test.stream(): a stream the test feeds step by step, for a mock to return where the real
--- client returns an iterator: `for text in deps.speech.start() do … end` in the feature's
--- effect receives each `stream:yield(value)` as it comes, and ends at `stream:finish()`.
local Stream = {}
Stream.__index = Stream
Stream.__name = "lunar.test.stream"
local nextStream = 0

function test.stream()
  nextStream = nextStream + 1
  local stream = setmetatable({ id = nextStream, values = {}, first = 1, last = 0, finished = false,
    cancelled = false, waiting = false }, Stream)
  -- NB: closed with the coroutine of an effect cancelled while it waits: the stream learns it.
  stream.guard = setmetatable({}, { __close = function() if stream.waiting then stream.cancelled = true end end })
  return stream
end

--- The next value, for a `for` loop in an effect: waits while the stream is empty; nil once it is
--- finished and read.
function Stream:__call()
  while true do
    if self.first <= self.last then
      local value = self.values[self.first]
      self.values[self.first], self.first = nil, self.first + 1
      return value
    end
    if self.finished then return nil end
    local _ <close> = self.guard
    self.waiting = true
    host.waitForStream(self.id, "a test.stream()")
    self.waiting = false
  end
end

--- stream:yield(value): hands `value` to the effect looping over the stream, and lets it run.
function Stream:yield(value)
  if value == nil then error("stream:yield needs a value (nil ends a for loop): stream:yield(\"hello\")", 2) end
  if self.finished then error("stream:yield after stream:finish(): the stream has ended", 2) end
  self.last = self.last + 1
  self.values[self.last] = value
  request("streamFed", self.id, at(2))
end

--- stream:finish(): ends the stream: the effect's loop ends once it read every value.
function Stream:finish()
  self.finished = true
  request("streamFed", self.id, at(2))
end

--- stream:isCancelled(): whether an effect looping over the stream was cancelled while it waited.
function Stream:isCancelled() return self.cancelled end

--- test.helper(function(…) … end): a function for tests whose failures (store operations that
--- fail, errors it raises) are reported at the line that called it, not at its own lines.
function test.helper(fn)
  if type(fn) ~= "function" then
    error("test.helper expects a function, got " .. describe(fn), 2)
  end
  return function(...)
    if helperAt ~= nil then return fn(...) end
    helperAt = whereCalled(2)
    local results = tpack(pcall(fn, ...))
    local caller = helperAt
    helperAt = nil
    if results[1] then return tunpack(results, 2, results.n) end
    local err = results[2]
    if type(err) == "string" then
      -- NB: the message's own `file:line:` is inside the helper; the caller's line replaces it.
      local rest = err:match("^[^\n:]+:%d+: (.*)$")
      error(caller .. ": " .. (rest or err), 0)
    end
    error(err, 0)
  end
end

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
  helperAt = nil
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
  methods = { ["lunar.TestStore"] = Store, ["lunar.TestStream"] = Stream },
}
