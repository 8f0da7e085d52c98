local test = require "lunar.test"
local Theme = require "theme"
local Preview = require "preview"

-- Fails on purpose (LuaSharedTests): the pulled-in shared change is not asserted.
test("a shared change left unasserted fails", function()
  local theme = test.store(Theme)
  local preview = test.store(Preview)
  theme:send({ type = "setTheme", theme = "dark" }, function(state)
    state.settings.theme = "dark"
    state.changes = 1
  end)
  preview:send({ type = "look" }, function(state) state.seen = "dark" end)
end)
