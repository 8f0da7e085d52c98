-- The dogs app as a plugin: its client asks dog.ceo's API, and nothing else.
local lunar = require "lunar"

return lunar.plugin {
  name = "dogs",
  version = "1.0.0",
  api = 1,
  feature = "feature",
  capabilities = { http = { hosts = { "dog.ceo" } } },
}
