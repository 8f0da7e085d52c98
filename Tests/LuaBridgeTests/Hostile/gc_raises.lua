-- Finalizers are refused: they would run at unpredictable moments.
setmetatable({}, { __gc = function() error("boom in __gc") end })
