-- Plugin manifests: a plugin's `plugin.lua` returns
--
--   lunar.plugin { name = "dogs", version = "1.2.0", api = 1, feature = "feature",
--                  capabilities = { http = { hosts = { "dog.ceo" } }, storage = true } }
--
-- `lunar.plugin` only checks that it got a table of data and marks a copy of it as a manifest:
-- the host that loads plugins (Swift) checks each field, because it alone knows the API versions
-- and capabilities it offers, and it points its errors at the field's line in plugin.lua.
-- Loaded after lunar/_clients.lua; gives the host `isManifest`.
local base = require "lunar._base"
local host = require "lunar._host"
local lunar, describe = base.lunarTable, base.describe

local type, next, error, setmetatable, tostring = type, next, error, setmetatable, tostring

local manifests = setmetatable({}, { __mode = "k" })   -- manifest copies made by lunar.plugin

-- A copy of `value` holding data only; `path` names it in errors. `depth` is the recursion depth
-- (1 for a field of the manifest), so that errors point at the caller of lunar.plugin.
local function copyData(value, path, depth)
  local t = type(value)
  if t == "string" or t == "number" or t == "boolean" then return value end
  if t ~= "table" then
    error("lunar.plugin: " .. path .. " must be data (strings, numbers, booleans, tables), got " ..
      describe(value), depth + 2)
  end
  if depth > 20 then error("lunar.plugin: " .. path .. " is nested too deeply", depth + 2) end
  local copy = {}
  for key, element in next, value do
    local name = type(key) == "string" and (path .. "." .. key) or (path .. "[" .. tostring(key) .. "]")
    copy[key] = copyData(element, name, depth + 1)
  end
  return copy
end

--- lunar.plugin { name =, version =, api =, feature =, capabilities = }: a plugin's manifest.
function lunar.plugin(manifest)
  if type(manifest) ~= "table" then
    error("lunar.plugin expects a table like { name = \"dogs\", version = \"1.0.0\", api = 1 }, got " ..
      describe(manifest), 2)
  end
  local copy = {}
  for key, value in next, manifest do
    if type(key) ~= "string" then
      error("lunar.plugin: fields are names like `name` or `capabilities`, got " .. describe(key), 2)
    end
    copy[key] = copyData(value, key, 1)
  end
  manifests[copy] = true
  return copy
end

--- Whether `value` is a manifest made by lunar.plugin.
function host.isManifest(value)
  return manifests[value] == true
end
