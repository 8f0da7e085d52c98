-- A terabyte string: Lua itself refuses anything over 2 GiB.
return string.rep("x", 2^40)
