local lunar = require "lunar"

-- A speech client in Lua whose `start` returns an iterator: one word a second, then the end.
return lunar.client "speech" {
  start = function(deps)
    local words, index = { "hello", "world" }, 0
    return function()
      if index == #words then return nil end
      deps.clock.sleep(1)
      index = index + 1
      return words[index]
    end
  end,
}
