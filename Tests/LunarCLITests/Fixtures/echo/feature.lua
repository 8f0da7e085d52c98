-- Echo: keeps the last action it received, and the Lua type of each of its fields.
local lunar = require "lunar"

return lunar.feature {
  name = "Echo",
  initial = { count = 0 },
  reduce = function(state, action)
    state.count = state.count + 1
    local fields, types = {}, {}
    for key, value in pairs(action) do
      fields[key] = value
      types[key] = math.type(value) or type(value)
    end
    state.last = fields
    state.types = types
  end,
}
