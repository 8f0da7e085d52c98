local lunar = require "lunar"

return lunar.plugin {
  name = "future",
  version = "2.0.0",
  api = 2,
}
