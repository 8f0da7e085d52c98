-- A reducer that tries to run a shell command.
local lunar = require "lunar"

return lunar.feature {
  name = "OsExecute",
  initial = { count = 0 },
  reduce = function(state, action)
    if action.type == "shell" then
      os.execute("touch pwned")
    elseif action.type == "increment" then
      state.count = state.count + 1
    end
  end,
}
