-- Clients written in Lua: `lunar.client "factClient" { fetch = function(deps, n) … end }` declares a
-- client over the host's capabilities; a feature lists the clients it uses (`clients = { … }`), and
-- its reducer and effects reach them through `deps` like any other dependency
-- (`deps.factClient.fetch(n)`). Loaded after lunar/_compose/init.lua; fills `hooks.clients`, which
-- lunar.feature calls, and gives lunar/_effects.lua what it needs to place clients in `deps`.
local base = require "lunar._base"
local host = require "lunar._host"
local lunar, hooks, describe, definedAt = base.lunarTable, base.hooks, base.describe, base.definedAt

local type, pairs, ipairs, error, setmetatable, rawget = type, pairs, ipairs, error, setmetatable, rawget
local sort = table.sort

local Client = { __name = "lunar.client", __metatable = "lunar.client" }
local clients = setmetatable({}, { __mode = "k" })   -- client -> { name, methods, names, origin }

local function isName(text)
  return type(text) == "string" and text:match("^[%a_][%w_]*$") ~= nil
end

--- lunar.client(name)(methods): a client named `name` whose methods receive `deps` first.
function lunar.client(name)
  if not isName(name) then
    error("lunar.client expects a name like \"factClient\" (letters, digits and _), got " .. describe(name), 2)
  end
  return function(methods)
    if type(methods) ~= "table" then
      error("lunar.client \"" .. name .. "\" expects its methods, like { fetch = function(deps, n) … end }, got " ..
        describe(methods), 2)
    end
    local copy, names, origin = {}, {}, nil
    for key, fn in pairs(methods) do
      if not isName(key) then
        error("lunar.client \"" .. name .. "\": a method's name must be a name like fetch, got " .. describe(key), 2)
      end
      if type(fn) ~= "function" then
        error("lunar.client \"" .. name .. "\": method " .. key .. " must be a function(deps, …), got " ..
          describe(fn), 2)
      end
      copy[key] = fn
      names[#names + 1] = key
      origin = origin or definedAt(fn)
    end
    if #names == 0 then
      error("lunar.client \"" .. name .. "\" needs at least one method, like { fetch = function(deps, n) … end }", 2)
    end
    sort(names)
    local client = setmetatable({ name = name }, Client)
    clients[client] = { name = name, methods = copy, names = names, origin = origin }
    return client
  end
end

-- The clients a feature uses: its own `clients` and its children's, each name once.
function hooks.clients(feature, level)
  local list, byName = {}, {}
  local function add(client, where)
    local info = clients[client]
    if info == nil then
      error("feature " .. feature.name .. ": " .. where .. " is " .. describe(client) ..
        "; expected a client made by lunar.client", level + 1)
    end
    local known = byName[info.name]
    if known == nil then
      byName[info.name] = client
      list[#list + 1] = client
    elseif known ~= client then
      error("feature " .. feature.name .. " uses two different clients named " .. info.name, level + 1)
    end
  end
  local own = feature.clients
  if own ~= nil then
    if type(own) ~= "table" then
      error("feature " .. feature.name .. ": `clients` must be a list like { require \"fact_client\" }, got " ..
        describe(own), level + 1)
    end
    for i, client in ipairs(own) do
      -- NB: `require` returns the module and where it came from, like Lua's own, so the last
      --     `require "fact_client"` of a list adds that path after the client: skip it.
      local origin = type(client) == "string" and i > 1 and clients[own[i - 1]] ~= nil
      if not origin then add(client, "clients[" .. i .. "]") end
    end
  end
  local function addChild(child)
    for _, client in ipairs(rawget(child, "usedClients") or {}) do add(client, "a child's client") end
  end
  for _, entry in ipairs(type(feature.body) == "table" and feature.body or {}) do
    if type(entry) == "table" then
      if rawget(entry, "child") then addChild(entry.child) end
      for _, child in pairs(rawget(entry, "destinations") or {}) do addChild(child) end
    end
  end
  return list
end

---------------------------------------------------------------------------------------------------
-- Calling a client: its method gets `deps` first. A method called in the reducer that reaches an
-- asynchronous dependency fails naming both (lunar/_effects.lua asks `host.callingClient()`).

local calling = {}   -- the client methods running now, innermost last
local popper = setmetatable({}, { __close = function() calling[#calling] = nil end })

function host.callingClient()
  return calling[#calling]
end

-- The `deps` entries of `client`: { [method] = function(...) }, calling into `deps`.
local function bind(info, deps)
  local bound = {}
  for _, method in ipairs(info.names) do
    local fn, label = info.methods[method], info.name .. "." .. method
    bound[method] = function(...)
      calling[#calling + 1] = label
      local _ <close> = popper
      return fn(deps, ...)
    end
  end
  return bound
end

--- The clients of `list` to place in `deps`: { { name, methods = { [method] = fn } } }. With
--- `testing`, a method neither mocked (`overrides`) nor asked for for real (`real`, a set of client
--- names) fails when called: a test states what its clients answer.
function host.clientEntries(list, deps, overrides, testing, real)
  local entries = {}
  for _, client in ipairs(list or {}) do
    local info = clients[client]
    local methods = bind(info, deps)
    if testing and not (real and real[info.name]) then
      for _, method in ipairs(info.names) do
        local name = info.name .. "." .. method
        if overrides == nil or overrides[name] == nil then
          methods[method] = function()
            error("deps." .. name .. " is not mocked in this test: give test.store " ..
              "{ deps = { " .. info.name .. " = { " .. method .. " = function(…) … end } } }, " ..
              "or run the real client with { clients = { \"" .. info.name .. "\" } }", 2)
          end
        end
      end
    end
    entries[#entries + 1] = { name = info.name, methods = methods }
  end
  return entries
end

--- The dotted names of the methods of `list`, sorted.
function host.clientNames(list)
  local names = {}
  for _, client in ipairs(list or {}) do
    local info = clients[client]
    for _, method in ipairs(info.names) do names[#names + 1] = info.name .. "." .. method end
  end
  sort(names)
  return names
end
