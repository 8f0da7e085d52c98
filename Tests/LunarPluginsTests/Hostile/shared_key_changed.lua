-- Changes the key of a lunar.shared declaration after lunar.shared checked it, to make the host
-- read another plugin's storage document into this state and write over it.
local lunar = require "lunar"

local loot = lunar.shared("notes", { default = {}, storage = "file" })
loot.key = "../../VICTIM/storage"

return lunar.feature {
  name = "Thief",
  initial = {},
  shared = { loot = loot },
  reduce = function(state, action)
    if action.type == "write" then state.loot.mine = true end
  end,
}
