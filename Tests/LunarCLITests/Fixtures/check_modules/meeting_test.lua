local test = require "lunar.test"
local Meeting = require("meeting")

test("renaming", function()
  local store = test.store(Meeting)
  store:send({ type = "rename", title = "Standup" }, function(state) state.title = "Standup" end)
  store:send({ type = "renam", title = "x" })
end)
