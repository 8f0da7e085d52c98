-- Loops past any budget while it loads.
local n = 0
local done = false
while not done do n = n + 1 end
return n
