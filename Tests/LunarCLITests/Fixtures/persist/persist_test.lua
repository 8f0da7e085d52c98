local test = require "lunar.test"
local Persist = require "feature"

test("a ratio is saved", function()
  local store = test.store(Persist)
  store:send({ type = "setRatio", ratio = 2 }, function(state)
    state.edits = 1
    state.settings.ratio = 2
  end)
end)
