-- The system's settings, where speech recognition is allowed. Here it only says so.
local lunar = require "lunar"

return lunar.client "settings" {
  open = function() print("(the system settings would open here)") end,
}
