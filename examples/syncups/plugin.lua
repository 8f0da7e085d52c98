-- SyncUps as a plugin: what `lunar host` and a Swift app's PluginHost read first. It asks for no
-- capability: its list is shared state saved in its own data folder, and its speech recognizer
-- is simulated.
local lunar = require "lunar"

return lunar.plugin {
  name = "syncups",
  version = "1.0.0",
  api = 1,
  feature = "feature",
}
