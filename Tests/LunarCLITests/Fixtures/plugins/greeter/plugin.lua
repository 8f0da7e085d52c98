local lunar = require "lunar"

return lunar.plugin {
  name = "greeter",
  version = "1.2.0",
  api = 1,
  feature = "app",
  capabilities = { http = { hosts = { "example.com" } }, storage = true },
}
