-- The shared state of SyncUps, declared once for every screen that holds it: the list of
-- sync-ups, saved as `shared/syncUps.json` in the app's data folder after every change.
local lunar = require "lunar"

return {
  syncUps = lunar.shared("syncUps", { default = lunar.array(), storage = "file" }),
}
