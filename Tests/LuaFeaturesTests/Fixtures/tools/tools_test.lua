local test = require "lunar.test"
local Editor = require "editor"

test("a feature that dismisses itself ends the store", function()
  local store = test.store(Editor)
  if store:isDismissed() then error("dismissed before anything happened") end
  store:send({ type = "save" }, function(state) state.saved = true end)
  if not store:isDismissed() then error("not dismissed after fx.dismiss()") end
end)

test("sending to a dismissed store fails", function()
  local store = test.store(Editor)
  store:send({ type = "save" }, function(state) state.saved = true end)
  store:send({ type = "edit", text = "late" }) -- send after dismissal
end)

test("withExhaustivity off accepts what is not asserted inside it only", function()
  local store = test.store(Editor)
  local answer = store:withExhaustivity("off", function()
    store:send({ type = "touch" })
    store:send({ type = "edit", text = "b" })
    return 42
  end)
  if answer ~= 42 then error("withExhaustivity returned " .. tostring(answer)) end
  store:send({ type = "edit", text = "c" }) -- exhaustive again
end)

test("withExhaustivity on inside a non-exhaustive store checks everything", function()
  local store = test.store(Editor, { exhaustive = false })
  store:withExhaustivity("on", function()
    store:send({ type = "edit", text = "x" }) -- exhaustive inside
  end)
  store:send({ type = "edit", text = "y" })
end)

test("showSkipped prints what was skipped", function()
  local store = test.store(Editor)
  store:withExhaustivity("off", { showSkipped = true }, function()
    store:send({ type = "touch" })
    store:skipReceived()
  end)
end)

test("assert checks the state without an action", function()
  local store = test.store(Editor)
  store:send({ type = "edit", text = "a" }, function(state) state.text = "a" end)
  store:assert(function(state) state.text = "a" end)
  store:assert(function(state) state.text = "wrong" end) -- wrong assert
end)

test("skipReceived returns and prints what it skipped", function()
  local store = test.store(Editor)
  store:send({ type = "touch" }, function(state) state.log = 1 end)
  local skipped = store:skipReceived({ print = true })
  if #skipped ~= 2 or skipped[1].type ~= "edit" or skipped[1].text ~= "touched" or skipped[2].type ~= "mark" then
    error("skipReceived returned " .. #skipped .. " actions")
  end
  if #store:skipReceived() ~= 0 then error("a second skipReceived found actions") end
end)

local expectText = test.helper(function(store, text)
  store:send({ type = "edit", text = text }, function(state) state.text = "not " .. text end)
end)

local failInHelper = test.helper(function()
  error("the helper gave up")
end)

test("a helper's failure is reported at its caller", function()
  local store = test.store(Editor)
  expectText(store, "hello") -- helper call
end)

test("a helper's error is reported at its caller", function()
  failInHelper() -- erroring helper call
end)

test("test.store takes what require returns", function()
  local store = test.store(require "editor")
  store:send({ type = "edit", text = "r" }, function(state) state.text = "r" end)
end)

test("a feature declaring no actions says so", function()
  local store = test.store(require "silent")
  store:send({ type = "poke" })
end)

local Recorder = require "recorder"

test("an effect loops over a stream the test feeds", function()
  local speech = test.stream()
  local store = test.store(Recorder, { deps = { speech = { start = function() return speech end } } })
  store:send({ type = "start" })
  speech:yield("hello")
  store:receive({ type = "heard", text = "hello" }, function(state) state.transcript = "hello" end)
  speech:yield("again")
  speech:yield("world")
  store:receive("heard", function(state) state.transcript = "hello again" end)
  store:receive("heard", function(state) state.transcript = "hello again world" end)
  speech:finish()
  store:receive("ended", function(state) state.ended = true end)
  store:finish()
  if speech:isCancelled() then error("a stream read to its end was cancelled") end
end)

test("cancelling the effect stops the stream and tells it", function()
  local speech = test.stream()
  local store = test.store(Recorder, { deps = { speech = { start = function() return speech end } } })
  store:send({ type = "start" })
  speech:yield("hello")
  store:receive("heard", function(state) state.transcript = "hello" end)
  store:send({ type = "stop" })
  if not speech:isCancelled() then error("the stream was not told of the cancellation") end
  store:finish()
end)

test("a Lua client's iterator streams on the test clock", function()
  local store = test.store(Recorder, { clients = { "speech" } })
  store:send({ type = "start" })
  store:advance(1)
  store:receive("heard", function(state) state.transcript = "hello" end)
  store:advance(1)
  store:receive("heard", function(state) state.transcript = "hello world" end)
  store:receive("ended", function(state) state.ended = true end)
end)

test("a stream read outside an effect is an error", function()
  local speech = test.stream()
  for _ in speech do end -- loop in the test
end)
