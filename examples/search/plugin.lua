-- The search as a plugin: its words client reads words.txt from the plugin's own folder.
local lunar = require "lunar"

return lunar.plugin {
  name = "search",
  version = "1.0.0",
  api = 1,
  feature = "feature",
  capabilities = { files = true },
}
