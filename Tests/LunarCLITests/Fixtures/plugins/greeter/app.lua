-- A plugin with a manifest: its entry feature is app.lua; it asks for http to example.com and
-- for storage.
local lunar = require "lunar"
local fx = lunar.fx

return lunar.feature {
  name = "Greeter",
  initial = { greeting = "" },
  reduce = function(state, action, deps)
    if action.type == "greet" then
      state.greeting = "Hello, " .. action.name .. "!"
    elseif action.type == "save" then
      local greeting = state.greeting
      return fx.run(function(send)
        deps.storage.set("greeting", greeting)
        send { type = "saved" }
      end, { catch = function(err, send) send { type = "failed", message = tostring(err) } end })
    elseif action.type == "elsewhere" then
      return fx.run(function(send)
        deps.http.get("http://other.example.org/")
        send { type = "reached" }
      end, { catch = function(err, send) send { type = "failed", message = tostring(err) } end })
    elseif action.type == "failed" then
      state.failure = action.message
    elseif action.type == "saved" then
      state.saved = true
    end
  end,
  view = function(state) return state.greeting end,
}
