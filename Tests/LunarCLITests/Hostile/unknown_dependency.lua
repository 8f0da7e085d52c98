-- A reducer that calls a dependency the host does not have.
local lunar = require "lunar"

return lunar.feature {
  name = "UnknownDependency",
  initial = { count = 0 },
  reduce = function(state, action, deps)
    if action.type == "nope" then
      state.count = deps.nope.call()
    elseif action.type == "increment" then
      state.count = state.count + 1
    end
  end,
}
