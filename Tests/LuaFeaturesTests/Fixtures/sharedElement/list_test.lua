local test = require "lunar.test"
local List = require "list"

local function uuid(n)
  return string.format("00000000-0000-0000-0000-%012d", n)
end

test("initial state and initialWith draw ids from the test's deps", function()
  local store = test.store(List)
  assert(store:state().session == uuid(0), store:state().session)
  store:send({ type = "addTapped" }, function(state)
    state.form = { id = uuid(1), title = "" }
  end)
  store:send({ type = "form", action = { type = "setTitle", title = "Design" } }, function(state)
    state.form.title = "Design"
  end)
  store:send({ type = "confirmAdd" }, function(state)
    state.syncUps = { { id = uuid(1), title = "Design" } }
    state.form = nil
  end)
end)

test("a mocked uuid builds the initial state", function()
  local store = test.store(List, { deps = { uuid = function() return "fixed" end } })
  assert(store:state().session == "fixed", store:state().session)
end)

test("a screen's write to its meeting reaches the list in the same action", function()
  local store = test.store(List, { initial = { syncUps = { { id = "a", title = "Design" } } } })
  store:send({ type = "open", index = 1 }, function(state)
    state.detail = { syncUp = { id = "a", title = "Design" } }
  end)
  store:send({ type = "detail", action = { type = "rename", title = "Retro" } }, function(state)
    state.detail.syncUp.title = "Retro"
    state.syncUps[1].title = "Retro"
  end)
  store:send({ type = "delete", index = 1 }, function(state)
    state.syncUps = {}
  end)
  store:send({ type = "detail", action = { type = "rename", title = "Gone" } }, function(state)
    state.detail.syncUp.title = "Gone"
  end)
end)
