-- The prelude's `require`, which loads the host's Lua as modules, as Lua's own does: a module runs
-- once, on its first `require`, and what it returns (`true` if nothing) is kept. The host (Swift)
-- hands it `loaded`, already holding the values it registers itself (`lunar._core`, the
-- transaction's C half; `lunar._where`; `lunar._warn`; `lunar._json`; `lunar._emptyArray`), and
-- `chunks`, every file of lunar/ compiled under its real name, by module name (`lunar._compose`
-- is lunar/_compose/init.lua). It is the `require` of the VM's own globals, which no feature's
-- sandbox sees: a sandbox's `require` knows its feature's folder, `lunar` and `lunar.test` only.
local loaded, chunks = ...
local error = error
local loading = {}

return function(name)
  local module = loaded[name]
  if module ~= nil then return module end
  local chunk = chunks[name]
  if chunk == nil then error("no module " .. tostring(name) .. " in the prelude", 2) end
  if loading[name] then error("the prelude's modules require each other in a cycle at " .. name, 2) end
  loading[name] = true
  module = chunk(name)
  loading[name] = nil
  if module == nil then module = true end
  loaded[name] = module
  return module
end
