-- A form whose initial state draws an id from `deps`.
local lunar = require "lunar"

return lunar.feature {
  name = "Form",
  initial = function(deps) return { id = deps.uuid(), title = "" } end,
  reduce = function(state, action)
    if action.type == "setTitle" then state.title = action.title end
  end,
}
