-- A table with a metatable would be an object the journal cannot see into: state refuses it.
local lunar = require "lunar"
return lunar.feature {
  name = "Objects",
  initial = { count = 0 },
  reduce = function(state, action)
    state.count = state.count + 1
    if action.type == "storeObject" then
      state.point = setmetatable({ x = 1 }, { __index = function() return 0 end }) -- refused
    elseif action.type == "storeNestedObject" then
      state.shape = { name = "dot", center = setmetatable({}, {}) } -- refused inside
    end
  end,
}
