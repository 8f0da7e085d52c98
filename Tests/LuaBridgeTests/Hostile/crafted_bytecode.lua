-- Handcrafted bytecode, even when asking for binary mode explicitly.
local evil = "\27Lua\84\0\25\147\13\10\26\10\4\8\8" .. string.rep("\255", 64)
return assert(load(evil, "evil", "b"))
