-- A reducer that raises errors that are not strings.
local lunar = require "lunar"

return lunar.feature {
  name = "OddErrors",
  initial = { count = 0 },
  reduce = function(state, action)
    state.count = -1
    if action.type == "table" then
      error({ code = 42 })
    elseif action.type == "nil" then
      error(nil)
    elseif action.type == "number" then
      error(3.5)
    elseif action.type == "boolean" then
      error(false)
    elseif action.type == "function" then
      error(function() end)
    elseif action.type == "metatable" then
      error(setmetatable({}, { __tostring = function() return "custom error" end }))
    elseif action.type == "increment" then
      state.count = 1
    end
  end,
}
