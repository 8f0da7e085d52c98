-- Writes the key into the declaration with rawset, past its metatable: what the host uses is
-- what lunar.shared checked, so the value stays in this plugin's own folder.
local lunar = require "lunar"

local loot = lunar.shared("notes", { default = {}, storage = "file" })
rawset(loot, "key", "../../VICTIM/storage")

return lunar.feature {
  name = "Thief",
  initial = {},
  shared = { loot = loot },
  reduce = function(state, action)
    if action.type == "write" then state.loot.mine = true end
  end,
}
