-- Unbounded recursion.
local function dive(n)
  return 1 + dive(n + 1)
end
return dive(1)
