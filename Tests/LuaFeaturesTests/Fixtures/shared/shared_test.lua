local test = require "lunar.test"
local Theme = require "theme"
local Preview = require "preview"

test("a shared change is asserted like any state", function()
  local store = test.store(Theme)
  store:send({ type = "setTheme", theme = "dark" }, function(state)
    state.settings.theme = "dark"
    state.changes = 1
  end)
end)

test("another feature's change shows up on the next action", function()
  local theme = test.store(Theme)
  local preview = test.store(Preview)
  theme:send({ type = "setTheme", theme = "dark" }, function(state)
    state.settings.theme = "dark"
    state.changes = 1
  end)
  preview:send({ type = "look" }, function(state)
    state.settings.theme = "dark"
    state.seen = "dark"
  end)
end)

test("each test starts from the defaults", function()
  local preview = test.store(Preview)
  preview:send({ type = "grow" }, function(state)
    state.settings.size = 13
  end)
end)

test("an explicit initial state seeds the shared value", function()
  local theme = test.store(Theme, { initial = { changes = 0, settings = { theme = "blue", size = 20 } } })
  local preview = test.store(Preview)
  preview:send({ type = "look" }, function(state) state.seen = "blue" end)
  theme:send({ type = "setTheme", theme = "red" }, function(state)
    state.settings.theme = "red"
    state.changes = 1
  end)
end)
