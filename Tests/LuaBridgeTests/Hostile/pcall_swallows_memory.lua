-- Catches its own memory errors forever: the budget still ends it.
while true do
  pcall(string.rep, "x", 2^30)
end
