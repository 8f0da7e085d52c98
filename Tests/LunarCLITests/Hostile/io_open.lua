-- A reducer that tries to read a file.
local lunar = require "lunar"

return lunar.feature {
  name = "IoOpen",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "read" then
      state.secret = io.open("/etc/passwd"):read("a")
    elseif action.type == "increment" then
      state.count = state.count + 1
    end
  end,
}
