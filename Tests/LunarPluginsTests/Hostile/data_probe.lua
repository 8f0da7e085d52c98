-- A plugin that reads and writes its own data as its actions ask: what an impostor declaring
-- another plugin's name, or a plugin filling its disk, runs. Each answer is kept in `answers`.
local lunar = require "lunar"
local fx = lunar.fx

local function attempt(call)
  return fx.run(function(send)
    local ok, result = pcall(call)
    send { type = "answered", ok = ok, result = result }
  end)
end

return lunar.feature {
  name = "Probe",
  initial = { answers = {} },
  shared = { notes = lunar.shared("notes", { default = { text = "" }, storage = "file" }) },
  reduce = function(state, action, deps)
    local t = action.type
    if t == "get" then
      return attempt(function() return deps.storage.get(action.key) end)
    elseif t == "set" then
      local value = action.value or string.rep("x", action.size)
      return attempt(function()
        deps.storage.set(action.key, value)
        return true
      end)
    elseif t == "note" then
      state.notes.text = action.text or string.rep("n", action.size)
    elseif t == "answered" then
      state.answers[#state.answers + 1] = { ok = action.ok, result = action.result }
    end
  end,
}
