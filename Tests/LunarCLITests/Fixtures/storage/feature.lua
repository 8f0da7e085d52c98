-- Storage: sets and gets one key of `deps.storage`.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Storage",
  initial = { loaded = false },
  reduce = function(state, action, deps)
    if action.type == "save" then
      local value = { ratio = action.ratio or 1, title = action.title or "untitled" }
      if action.broken then value.ratio = 0 / 0 end
      return fx.run(function() deps.storage.set("draft", value) end)
    elseif action.type == "load" then
      return fx.run(function(send) send { type = "loaded", document = deps.storage.get("draft") } end)
    elseif action.type == "loaded" then
      state.loaded = true
      state.document = action.document
    end
    return fx.none
  end,
}
