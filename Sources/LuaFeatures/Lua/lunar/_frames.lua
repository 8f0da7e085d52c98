-- Keeps the author's line in the errors of `lunar.fx`. A reducer usually tail-calls its effects
-- (`return fx.send(…)`), and a Lua function tail-called replaces its caller's frame: an error about
-- a bad argument would have no script line left to name. Each fx function and each method of an
-- effect is called through a C function instead (CLuaTransaction's keepFrame), which Lua never
-- tail-calls; their errors name level 3 (lunar/_base.lua). It also runs them outside the
-- instruction budget, as the host's code they are.
local base = require "lunar._base"
local host = require "lunar._host"
local keepFrame = host.internals.core.keepFrame

for name, fn in pairs(base.fx) do
  if type(fn) == "function" then base.fx[name] = keepFrame(fn) end
end
for name, fn in pairs(base.Effect) do
  base.Effect[name] = keepFrame(fn)
end
