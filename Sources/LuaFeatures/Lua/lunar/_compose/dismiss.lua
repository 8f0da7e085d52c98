-- `lunar._compose.dismiss`, Composable's dismissal: `{ type = "detail", action = { type = "dismiss" } }`
-- (and the same with an `id` for a stack entry) runs the parent's reducers first, then removes the
-- child — a stack entry and the entries above it. The body's C loop calls this after the body ran.
-- A presented alert or dialog whose button was sent is recorded with its table: it goes only if it
-- is still the one presented (the parent may have replaced it).
local host = require "lunar._host"
local forEach = require "lunar._compose.forEach"
local realOf = host.internals.realOf
local indexOf = forEach.indexOf

local type, rawget, rawset, rawequal, rawlen = type, rawget, rawset, rawequal, rawlen

-- Removes dismissed children, after the body ran (the parent could still read them).
local function applyDismissals(dismissals, state, real)
  for i = 1, #dismissals, 2 do
    local e, id = dismissals[i], dismissals[i + 1]
    local plain = rawequal(state, real)
    if e.kind ~= "stack" then
      local now = rawget(real, e.key)
      if now ~= nil and (id == false or rawequal(now, id)) then
        if plain then rawset(real, e.key, nil) else state[e.key] = nil end
      end
    else
      local items = plain and rawget(real, e.key) or state[e.key]
      local backing = type(items) == "table" and (realOf(items) or items) or nil
      local index = backing and indexOf(backing, id) or nil
      if index ~= nil then
        for j = rawlen(backing), index, -1 do
          if plain then rawset(items, j, nil) else items[j] = nil end
        end
      end
    end
  end
end

return applyDismissals
