-- A gigabyte string: allowed by string.rep, refused by the memory ceiling.
return string.rep("x", 2^30)
