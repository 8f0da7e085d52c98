-- Recursion through metamethods nests C calls until the C stack guard (LUAI_MAXCCALLS) stops it.
local t = setmetatable({}, { __index = function(t, k) return t[k] end })
return t.anything
