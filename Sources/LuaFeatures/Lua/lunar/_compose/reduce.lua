-- `lunar._compose.reduce`, Composable's Reduce: `lunar.reduce(fn)`, the feature's own reducer in its
-- body. It sees every action, wrapped ones included.
local base = require "lunar._base"
local body = require "lunar._compose.body"
local lunar, describe, definedAt = base.lunarTable, base.describe, base.definedAt
local entry = body.entry

local type, error = type, error

--- lunar.reduce(function(state, action, deps) … end): the feature's own reducer in its body.
function lunar.reduce(fn)
  if type(fn) ~= "function" then
    error("lunar.reduce expects a function(state, action, deps), got " .. describe(fn), 2)
  end
  return entry { kind = "reduce", fn = fn, origin = definedAt(fn) }
end
