-- The shared string metatable is hidden, so it cannot be poisoned.
getmetatable("").__index = function() return "pwned" end
