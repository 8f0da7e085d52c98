-- Grows until the memory ceiling refuses.
local t, i = {}, 0
while true do
  i = i + 1
  t[i] = string.rep("x", 1024) .. i
end
