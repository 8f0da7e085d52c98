-- Changes the declaration lunar.feature made from lunar.shared, in the feature table it returns:
-- the host checks the key where it becomes a file name.
local lunar = require "lunar"

local feature = lunar.feature {
  name = "Thief",
  initial = {},
  shared = { loot = lunar.shared("notes", { default = {}, storage = "file" }) },
  reduce = function(state, action)
    if action.type == "write" then state.loot.mine = true end
  end,
}
feature.sharedFields[1].key = "../../VICTIM/storage"
return feature
