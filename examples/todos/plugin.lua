-- The todos as a plugin: its list is a shared value saved to a file of its own, and its backup
-- goes to deps.storage.
local lunar = require "lunar"

return lunar.plugin {
  name = "todos",
  version = "1.0.0",
  api = 1,
  feature = "feature",
  capabilities = { storage = true },
}
