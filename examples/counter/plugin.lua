-- The counter as a plugin: what `lunar host` and a Swift app's PluginHost read first. Its fact
-- client asks numbersapi.com, and nothing else.
local lunar = require "lunar"

return lunar.plugin {
  name = "counter",
  version = "1.0.0",
  api = 1,
  feature = "feature",
  capabilities = { http = { hosts = { "numbersapi.com" } } },
}
