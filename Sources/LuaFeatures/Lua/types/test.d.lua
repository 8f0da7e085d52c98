---@meta lunar.test
-- Definitions of `lunar.test` for editors (lua-language-server): what a `*_test.lua` file sees
-- after `local test = require "lunar.test"`. See lunar.d.lua.

---Options of `test.store`.
---@class lunar.TestStoreOptions
---@field initial? table|fun(deps: table): table Start from this state instead of the feature's `initial`; a function is called with the store's `deps` (its counting `uuid`, its mocks).
---@field deps? table Mocks: plain Lua functions, by the dependency's path (`{ wordsClient = { search = fn } }`).
---@field exhaustive? boolean `false` asserts only what you choose to.
---@field clients? string[] The Lua clients that run for real (`{ "factClient" }`); the methods of the others fail unless mocked.
---@field timeout? number How long `receive` and `finish` wait for effects, in real seconds (1 by default); with no effect running they fail at once.

---A store running a feature under a test clock, exhaustive by default: every state change and
---every received action must be asserted, and no effect may be left running at the end.
---@class lunar.TestStore
local TestStore = {}

---Sends `action`. `expect(state)` receives a copy of the state before the action and changes it
---into what you expect after; without it, the state must not change.
---@param action lunar.Action
---@param expect? fun(state: table): table?
function TestStore:send(action, expect) end

---Waits (up to one second of real time) for the next action an effect sent, checks that it
---matches (an action type, a whole action, or a predicate) and asserts the state change like `send`.
---@param matcher string|lunar.Action|fun(action: lunar.Action): boolean
---@param expect? fun(state: table): table?
function TestStore:receive(matcher, expect) end

---Moves the test clock forward, running what was waiting on it: `deps.clock.sleep`,
---`fx.debounce`, `fx.throttle`.
---@param seconds number
function TestStore:advance(seconds) end

---Waits for the store's effects to end; fails if one is still running.
function TestStore:finish() end

---Accepts the actions received so far without asserting on them; returns them, oldest first.
---With `{ print = true }`, prints them too.
---@param options? { print?: boolean }
---@return lunar.Action[]
function TestStore:skipReceived(options) end

---Stops waiting for the effects still running, so the test can end without them; they are not
---cancelled, and an action one of them sends later is received like any other.
function TestStore:skipInFlight() end

---A copy of the state as of the last send, receive or skip, for checks of your own.
---@return table
function TestStore:state() end

---Asserts the state without sending an action: `expect(state)` changes a copy of the state into
---what you expect it to be (TCA's `store.assert`).
---@param expect fun(state: table): table?
function TestStore:assert(expect) end

---Whether the feature dismissed itself (`fx.dismiss()` at its root): sending to the store then
---fails the test.
---@return boolean
function TestStore:isDismissed() end

---Runs `fn` with the store exhaustive (`"on"`) or not (`"off"`), then puts it back; returns what
---`fn` returns. With `{ showSkipped = true }`, what the store skips is printed.
---
---```lua
---store:withExhaustivity("off", function()
---  store:send({ type = "onAppear" })
---  store:skipReceived()
---end)
---```
---@param mode "on"|"off"
---@param options_or_fn { showSkipped?: boolean }|fun(): any
---@param fn? fun(): any
---@return any
function TestStore:withExhaustivity(mode, options_or_fn, fn) end

---A stream a test feeds step by step (`test.stream()`), for a mock to return where the real
---client returns an iterator. The effect's `for value in stream do … end` receives each value.
---@class lunar.TestStream
local TestStream = {}

---Hands `value` (not nil) to the effect looping over the stream, and lets it run.
---@param value any
function TestStream:yield(value) end

---Ends the stream: the effect's loop ends once it read every value.
function TestStream:finish() end

---Whether an effect looping over the stream was cancelled while it waited for a value.
---@return boolean
function TestStream:isCancelled() end

---Declares a test: `test("name", function() … end)`. Each runs on its own, with fresh stores and a
---fresh test clock; an error raised in it fails the test with its `file:line`.
---@class lunar.test
---@overload fun(name: string, fn: fun())
local test = {}

---A store running `feature` under a test clock, exhaustive by default.
---
---```lua
---local store = test.store(Counter, { deps = { factClient = { fetch = function(n) return n .. "!" end } } })
---```
---@param feature lunar.Feature
---@param options? lunar.TestStoreOptions
---@return lunar.TestStore
function test.store(feature, options) end

---A stream the test feeds: `stream:yield(value)`, `stream:finish()` (TCA's `AsyncStream.makeStream`).
---
---```lua
---local speech = test.stream()
---local store = test.store(Recorder, { deps = { speech = { start = function() return speech end } } })
---store:send({ type = "onAppear" })
---speech:yield("Hello")
---store:receive("transcript", function(state) state.transcript = "Hello" end)
---speech:finish()
---```
---@return lunar.TestStream|fun(): any
function test.stream() end

---Wraps a test helper: a failure inside it (a store operation that fails, an error it raises) is
---reported at the line that called it, like Swift's `file:line:` parameters.
---
---```lua
---local expectTitle = test.helper(function(store, title)
---  store:send({ type = "rename", title = title }, function(state) state.title = title end)
---end)
---```
---@generic F: function
---@param fn F
---@return F
function test.helper(fn) end

return test
