-- A feature run with `lunar run` that keeps its draft in `deps.storage`, and tries to keep more
-- than its data limit (a 2 MiB draft). Past `--data-limit`, the save fails naming the sizes, and
-- the document keeps what it had. Copied under one folder name into two folders, the copies try
-- to read each other's draft.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "DataHog",
  initial = { loaded = false },
  reduce = function(state, action, deps)
    if action.type == "save" then
      local title = action.title
      return fx.run(function() deps.storage.set("draft", title) end)
    elseif action.type == "hog" then
      return fx.run(function()
        deps.storage.set("draft", string.rep("x", 2 * 1024 * 1024)) -- over the limit
      end)
    elseif action.type == "load" then
      return fx.run(function(send) send { type = "loaded", draft = deps.storage.get("draft") } end)
    elseif action.type == "loaded" then
      state.loaded = true
      state.draft = action.draft
    end
  end,
}
