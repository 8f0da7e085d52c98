-- `lunar._base`: the `lunar` module scripts `require` (`lunar.feature` and the effect descriptions
-- of `lunar.fx`), and the helpers the host's other modules share (lunar/_host.lua,
-- lunar/_compose/init.lua, lunar/_test.lua…); those are never reachable from a feature's sandbox.
-- `lunar._where` and `lunar._json` are registered by the host (Swift): `where.defined(fn)` ->
-- "file.lua:12" (no `debug` here); the JSON codec `{ encode = fn, decode = fn }` becomes lunar.json.
local whereDefined = require("lunar._where").defined
local codec = require "lunar._json"
-- NB: LuaBridge marks every array it pushes with this metatable, so that a list emptied in place
--     still reads (and is written to JSON) as an array; `lunar.array` puts it on a script's table.
local arrayMarker = getmetatable(require "lunar._emptyArray")
-- NB: the table behind a state proxy, for `lunar.isArray` (the transaction's C half).
local realOf = require("lunar._core").realOf

local type, setmetatable, getmetatable, rawget, select, error, tostring, pairs, next =
  type, setmetatable, getmetatable, rawget, select, error, tostring, pairs, next

local lunar = {}
local fx = {}
local json = { encode = codec.encode, decode = codec.decode }

-- Effects are named by where their function is defined ("counter.lua:12"): reducers often
-- `return fx.run(…)`, a tail call that leaves no frame to ask for a current line.
local function definedAt(fn)
  return whereDefined(fn)
end

local function describe(value)
  local t = type(value)
  if t == "string" then return string.format("%q", value) end
  if t == "table" then return "a table" end
  return t == "nil" and "nil" or (t .. " " .. tostring(value))
end

---------------------------------------------------------------------------------------------------
-- Actions

local function checkAction(action, what, level)
  if type(action) ~= "table" then
    error(what .. " expects an action table like { type = \"increment\" }, got " .. describe(action), level + 1)
  end
  if type(rawget(action, "type")) ~= "string" then
    error(what .. " expects an action with a string `type` field, got type = " .. describe(rawget(action, "type")),
      level + 1)
  end
end

---------------------------------------------------------------------------------------------------
-- Effects: descriptions only. Swift turns them into the core's effects.
--
-- NB: the host calls the fx functions and Effect's methods through a C function each
--     (lunar/_frames.lua), which keeps the author's frame when a reducer tail-calls them
--     (`return fx.send(…)`): their errors name level 3, the author's line.
-- NB: that C function also runs them outside the instruction budget (host code, which counts
--     none of it): they must always terminate and never run a script's code, so they read a
--     script's tables raw (`rawget(options, "catch")`), never with `.`, `#`, `==` or `pairs`.

-- NB: scripts hold handles, empty tables whose description lives here, out of reach: effects are
--     shared (`fx.none`) and a handle cannot be changed, not even with `rawset`.
local Effect = {}
local descriptions = setmetatable({}, { __mode = "k" })
local EffectHandle = {
  __index = function(handle, key)
    local value = descriptions[handle][key]
    if value ~= nil then return value end
    return Effect[key]
  end,
  __newindex = function() error("effects cannot be changed", 2) end,
  __name = "lunar.effect",
  __metatable = "lunar.effect",
}

-- NB: filled in by the host's Lua files loaded after this one (lunar/_compose/init.lua, lunar/_loose.lua…).
local hooks = {}

local function effect(t)
  local handle = setmetatable({}, EffectHandle)
  descriptions[handle] = t
  local built = hooks.built
  if built ~= nil then built(handle, t) end
  return handle
end

local function isEffect(value)
  return descriptions[value] ~= nil
end

--- The description behind an effect handle (host only).
local function descriptionOf(value)
  return descriptions[value]
end

local function checkID(id, what, level)
  local t = type(id)
  if t ~= "string" and t ~= "number" and t ~= "boolean" then
    error(what .. " expects an id that is a string, number or boolean, got " .. describe(id), level + 1)
  end
end

local function checkSeconds(seconds, what, level)
  if type(seconds) ~= "number" or seconds ~= seconds or seconds < 0 or seconds == math.huge then
    error(what .. " expects a duration in seconds (a finite number ≥ 0), got " .. describe(seconds), level + 1)
  end
end

--- fx.none: no effect.
fx.none = effect { kind = "none" }

--- fx.send(action): feed `action` back into the store immediately.
function fx.send(action)
  checkAction(action, "fx.send", 3)
  return effect { kind = "send", action = action }
end

--- fx.run(fn [, { catch = fn }]): run `fn(send)` as a coroutine driven by Swift.
function fx.run(fn, options)
  if type(fn) ~= "function" then
    error("fx.run expects a function(send), got " .. describe(fn), 3)
  end
  local catch = nil
  if options ~= nil then
    if type(options) ~= "table" then error("fx.run's options must be a table like { catch = fn }", 3) end
    catch = rawget(options, "catch")
    if catch ~= nil and type(catch) ~= "function" then
      error("fx.run's catch must be a function(error, send), got " .. describe(catch), 3)
    end
  end
  return effect { kind = "run", fn = fn, catch = catch, origin = definedAt(fn) }
end

local function collect(what, ...)
  local effects = {}
  for i = 1, select("#", ...) do
    local e = select(i, ...)
    if e ~= nil then
      if not isEffect(e) then
        error(what .. " expects effects (from lunar.fx), argument " .. i .. " is " .. describe(e), 4)
      end
      if e.kind ~= "none" then effects[#effects + 1] = e end
    end
  end
  return effects
end

--- fx.merge(e1, e2, …): run effects at once.
function fx.merge(...)
  local effects = collect("fx.merge", ...)
  if #effects == 0 then return fx.none end
  if #effects == 1 then return effects[1] end
  return effect { kind = "merge", effects = effects }
end

--- fx.concat(e1, e2, …): run effects one after the other.
function fx.concat(...)
  local effects = collect("fx.concat", ...)
  if #effects == 0 then return fx.none end
  if #effects == 1 then return effects[1] end
  return effect { kind = "concat", effects = effects }
end

--- fx.cancel(id): cancel the effects running under `id` in this feature instance.
function fx.cancel(id)
  checkID(id, "fx.cancel", 3)
  return effect { kind = "cancel", id = id }
end

--- fx.debounce(id, seconds, action): send `action` once `seconds` pass without another debounce of `id`.
function fx.debounce(id, seconds, action)
  checkID(id, "fx.debounce", 3)
  checkSeconds(seconds, "fx.debounce", 3)
  checkAction(action, "fx.debounce", 3)
  return effect { kind = "debounce", id = id, seconds = seconds, action = action }
end

--- fx.throttle(id, seconds, action [, latest]): at most one action per `seconds` for `id`.
function fx.throttle(id, seconds, action, latest)
  checkID(id, "fx.throttle", 3)
  checkSeconds(seconds, "fx.throttle", 3)
  checkAction(action, "fx.throttle", 3)
  return effect { kind = "throttle", id = id, seconds = seconds, action = action, latest = latest and true or false }
end

--- effect:cancellable(id [, { cancelInFlight = true }])
function Effect:cancellable(id, options)
  checkID(id, "cancellable", 3)
  local cancelInFlight = false
  if options ~= nil then
    if type(options) ~= "table" then
      error("cancellable's options must be a table like { cancelInFlight = true }", 3)
    end
    cancelInFlight = rawget(options, "cancelInFlight") and true or false
  end
  local description = descriptions[self]
  if description == nil then
    error("cancellable is a method of effects, as in fx.run(load):cancellable(\"load\"), got " .. describe(self), 3)
  end
  if description.kind == "none" then
    return cancelInFlight and fx.cancel(id) or fx.none
  end
  return effect { kind = "cancellable", id = id, cancelInFlight = cancelInFlight, effect = self }
end

--- fx.dismiss(): closes this feature, when a parent presents it (`lunar.ifLet`) or stacks it
--- (`lunar.stack`): the parent receives `{ type = "detail", action = { type = "dismiss" } }`.
local dismissEffect = effect { kind = "dismiss" }
function fx.dismiss()
  return dismissEffect
end

setmetatable(fx, {
  __index = function(_, name)
    error("lunar.fx has no effect named " .. describe(name) ..
      " (effects: none, send, run, merge, concat, cancel, debounce, throttle, dismiss)", 2)
  end,
})

---------------------------------------------------------------------------------------------------
-- Features

local withShared
local Feature = {}
Feature.__index = Feature
Feature.__name = "lunar.feature"
Feature.__metatable = "lunar.feature"
local features = setmetatable({}, { __mode = "k" })

---------------------------------------------------------------------------------------------------
-- Shared state: lunar.shared(key, { default = …, storage = "memory" | "file" }) declares a value
-- the host keeps (Swift's Shared), placed in a feature's state by `shared = { field = … }`.

local function copyValue(v, depth)
  if type(v) ~= "table" then return v end
  if depth > 200 then error("shared default nested too deeply (over 200 levels)", 0) end
  local copy = {}
  for k, e in next, v do copy[k] = copyValue(e, depth + 1) end
  if getmetatable(v) == arrayMarker then setmetatable(copy, arrayMarker) end
  return copy
end

-- NB: a declaration is an empty handle; what it declares is kept where the script cannot reach
--     it (`sharedDeclarations[handle]`), so that what was checked is what is used: a key changed
--     afterwards could otherwise name another file.
local sharedDeclarations = setmetatable({}, { __mode = "k" })
local SharedDeclaration = {
  __name = "lunar.shared",
  __metatable = "lunar.shared",
  __index = function(handle, field)
    local declared = sharedDeclarations[handle]
    if field == "default" then return copyValue(declared.default, 0) end
    return declared[field]
  end,
  __newindex = function(handle, field)
    error("lunar.shared(" .. describe(sharedDeclarations[handle].key) .. ") cannot be changed after it is made " ..
      "(tried to set " .. describe(field) .. "): declare another value with lunar.shared instead", 2)
  end,
}
local STORAGES = { memory = true, file = true }

--- lunar.shared("settings", { default = { theme = "light" }, storage = "file" })
function lunar.shared(key, options)
  if type(key) ~= "string" or not key:match("^[%w_%.%-]+$") or key:sub(1, 1) == "." or #key > 100 then
    error("lunar.shared needs a key of letters, digits, `_`, `-` and `.` (like \"settings\", at most 100), got " ..
      describe(key), 2)
  end
  if options ~= nil and type(options) ~= "table" then
    error("lunar.shared(" .. describe(key) .. ", options) expects { default = …, storage = \"memory\" | \"file\" }, " ..
      "got " .. describe(options), 2)
  end
  options = options or {}
  local storage = options.storage or "memory"
  if not STORAGES[storage] then
    error("lunar.shared(" .. describe(key) .. "): storage must be \"memory\" or \"file\", got " .. describe(storage), 2)
  end
  if options.default == nil then
    error("lunar.shared(" .. describe(key) .. ") needs a `default` value", 2)
  end
  local t = type(options.default)
  if t == "function" or t == "userdata" or t == "thread" then
    error("lunar.shared(" .. describe(key) .. "): the default must be data, got " .. describe(options.default), 2)
  end
  local handle = setmetatable({}, SharedDeclaration)
  sharedDeclarations[handle] = { key = key, storage = storage, default = copyValue(options.default, 0) }
  return handle
end

-- NB: an element reference is a handle too, kept apart from declarations: it names a key, and
--     declares nothing unless it was made from a declaration.
local elementReferences = setmetatable({}, { __mode = "k" })
local ElementReference = {
  __name = "lunar.sharedElement",
  __metatable = "lunar.sharedElement",
  __index = function(handle, field) return elementReferences[handle][field] end,
  __newindex = function(handle)
    error("lunar.sharedElement(" .. describe(elementReferences[handle].key) .. ") cannot be changed after it is made",
      2)
  end,
}

--- lunar.sharedElement("syncUps") (or a lunar.shared declaration): the element of a shared array
--- whose `id` is the field's own `id`.
function lunar.sharedElement(key)
  local declaration = sharedDeclarations[key]
  if declaration ~= nil then key = declaration.key end
  if type(key) ~= "string" or not key:match("^[%w_%.%-]+$") or key:sub(1, 1) == "." or #key > 100 then
    error("lunar.sharedElement needs the key of a shared array (like \"syncUps\") or its lunar.shared(…) " ..
      "declaration, got " .. describe(key), 2)
  end
  local handle = setmetatable({}, ElementReference)
  elementReferences[handle] = { key = key, declaration = declaration }
  return handle
end

-- The feature's initial state with each shared field holding its default (the host replaces it
-- with the current shared value), and the fields' plain declarations for the host.
function withShared(name, initial, shared)
  if type(shared) ~= "table" then
    error("feature " .. name .. ": `shared` must be a table { field = lunar.shared(…) }, got " .. describe(shared), 3)
  end
  local state, fields = {}, {}
  if type(initial) == "function" then
    -- NB: the shared defaults are laid over each state the function makes.
    local make = initial
    local defaults
    defaults, fields = withShared(name, {}, shared)
    return function(deps)
      local made = make(deps)
      if type(made) ~= "table" then
        error("feature " .. name .. ": initial(deps) must return a state table, got " .. describe(made), 2)
      end
      for field, value in pairs(defaults) do
        if made[field] == nil then made[field] = copyValue(value, 0) end
      end
      return made
    end, fields
  end
  for k, v in pairs(initial) do state[k] = v end
  for field, handle in pairs(shared) do
    local declaration, reference = sharedDeclarations[handle], elementReferences[handle]
    if type(field) ~= "string" or not (declaration or reference) then
      error("feature " .. name .. ": `shared` maps field names to lunar.shared(…) or lunar.sharedElement(…), got " ..
        describe(field) .. " = " .. describe(handle), 3)
    end
    if reference ~= nil then
      -- NB: an element has no default of its own: the parent presents the child with one.
      declaration = reference.declaration
      fields[#fields + 1] = { field = field, key = reference.key, element = true, feature = name, path = {},
        storage = declaration and declaration.storage, default = declaration and copyValue(declaration.default, 0) }
    else
      if initial[field] ~= nil then
        error("feature " .. name .. ": `" .. field .. "` is both in `initial` and in `shared`; " ..
          "its default belongs in lunar.shared(…, { default = … })", 3)
      end
      state[field] = copyValue(declaration.default, 0)
      fields[#fields + 1] = { field = field, key = declaration.key, storage = declaration.storage, feature = name,
        path = {}, default = copyValue(declaration.default, 0) }
    end
  end
  return state, fields
end

-- The shared fields of a body's children, each with the path from the parent's state to the
-- child's (a list's element is `{ each = true }`, a stack entry's `{ each = true, screen = name }`,
-- a destination presenting case `name` at `key` is `{ key = key, screen = name }`
-- then "state"), appended to `fields`.
local function childrenShared(body, fields)
  local function add(child, prefix)
    local sites = type(child) == "table" and child.sharedFields or nil
    if sites == nil then return end
    for i = 1, #sites do
      local site, path = sites[i], {}
      for p = 1, #prefix do path[p] = prefix[p] end
      for p = 1, #site.path do path[#path + 1] = site.path[p] end
      local copy = {}
      for k, v in pairs(site) do copy[k] = v end
      copy.path = path
      fields[#fields + 1] = copy
    end
  end
  for i = 1, #body do
    local e = body[i]
    if e.kind == "scope" or e.kind == "ifLet" then
      add(e.child, { e.key })
    elseif e.kind == "forEach" then
      add(e.child, { e.key, { each = true } })
    elseif e.kind == "stack" then
      for screen, child in pairs(e.destinations) do add(child, { e.key, { each = true, screen = screen }, "state" }) end
    elseif e.kind == "destination" then
      for screen, child in pairs(e.destinations) do add(child, { { key = e.key, screen = screen }, "state" }) end
    end
  end
  return fields
end

--- lunar.feature { name = …, initial = {…}, reduce = function(state, action, deps) … end }
function lunar.feature(definition)
  if type(definition) ~= "table" then
    error("lunar.feature expects a table { name = …, initial = {…}, reduce = function … }", 2)
  end
  local name = definition.name
  if type(name) ~= "string" or name == "" then
    error("lunar.feature needs a `name` string", 2)
  end
  if type(definition.initial) ~= "table" and type(definition.initial) ~= "function" then
    error("feature " .. name .. " needs an `initial` state table, got " .. describe(definition.initial), 2)
  end
  if definition.body ~= nil then
    if definition.reduce ~= nil then
      error("feature " .. name .. " has both `reduce` and `body`: put the reducer in the body, " ..
        "as lunar.reduce(function(state, action, deps) … end)", 2)
    end
  elseif type(definition.reduce) ~= "function" then
    error("feature " .. name .. " needs a `reduce = function(state, action, deps)` (or a `body = { … }`), got " ..
      describe(definition.reduce), 2)
  end
  for _, optional in ipairs { "view", "migrate" } do
    if definition[optional] ~= nil and type(definition[optional]) ~= "function" then
      error("feature " .. name .. ": `" .. optional .. "` must be a function, got " .. describe(definition[optional]),
        2)
    end
  end
  local feature = {}
  for k, v in pairs(definition) do feature[k] = v end
  if definition.shared ~= nil then
    feature.initial, feature.sharedFields = withShared(name, definition.initial, definition.shared)
  end
  if definition.body ~= nil then
    feature.reduce, feature.origin = hooks.compose(feature, 2)
    local fields = childrenShared(definition.body, feature.sharedFields or {})
    if #fields > 0 then feature.sharedFields = fields end
  else
    feature.origin = definedAt(definition.reduce)
  end
  feature.usedClients = hooks.clients(feature, 2)
  feature.declaredActions = hooks.actions(feature, 2)
  features[feature] = true
  return setmetatable(feature, Feature)
end

local function isFeature(value)
  return features[value] == true
end

-- A copy of a state table: nested plain tables are copied (an array keeps its mark), tables with
-- another metatable shared.
local function copyState(t, depth)
  if depth > 200 then error("state nested too deeply (over 200 levels)", 0) end
  local copy = {}
  for k, v in next, t do
    if type(v) == "table" then
      local mt = getmetatable(v)
      if mt == nil or mt == arrayMarker then v = copyState(v, depth + 1) end
    end
    copy[k] = v
  end
  if getmetatable(t) == arrayMarker then setmetatable(copy, arrayMarker) end
  return copy
end

--- lunar.array() or lunar.array { … }: the table (a new one when none is given) marked as a list,
--- so that it is written to JSON as an array even when empty (`[]`, never `{}`). The mark stays
--- with the table in state, through copies, hot reload and saved files.
function lunar.array(t)
  if t == nil then return setmetatable({}, arrayMarker) end
  if type(t) ~= "table" then
    error("lunar.array expects a list table (or nothing, for an empty one), got " .. describe(t), 2)
  end
  local mt = getmetatable(t)
  if mt == arrayMarker then return t end
  if mt ~= nil then
    error("lunar.array cannot mark a table that has a metatable (a table read from `state` is one: " ..
      "assign `state.field = lunar.array { … }` instead)", 2)
  end
  for k in next, t do
    if math.type(k) ~= "integer" or k < 1 then
      error("lunar.array expects a list (keys 1 to n), got a table with the key " .. describe(k), 2)
    end
  end
  return setmetatable(t, arrayMarker)
end

--- lunar.isArray(t): whether `t` is marked as a list (by `lunar.array`, or because it reached Lua
--- as an array), a table of `state` included: what a copy needs to stay a list.
function lunar.isArray(t)
  if type(t) ~= "table" then return false end
  return getmetatable(realOf(t) or t) == arrayMarker
end

--- Feature:initialWith({ … } [, deps]): a fresh copy of the feature's `initial` state with the
--- given fields set, to present or push a child (`state.detail = Detail:initialWith { title = … }`).
--- A feature whose `initial` is a function(deps) needs the `deps` to build it with.
function Feature:initialWith(fields, deps)
  if fields ~= nil and type(fields) ~= "table" then
    error(self.name .. ":initialWith expects a table of fields, got " .. describe(fields), 2)
  end
  local state
  if type(self.initial) == "function" then
    if type(deps) ~= "table" then
      error(self.name .. "'s initial state is built with deps: call " .. self.name ..
        ":initialWith(fields, deps) with the deps your reducer gets", 2)
    end
    state = self.initial(deps)
  else
    state = copyState(self.initial, 0)
  end
  if fields ~= nil then
    for k, v in pairs(fields) do state[k] = v end
  end
  return state
end

--- A read-only view of `t`: what scripts get as `lunar` and `lunar.fx`.
local function readonly(t, name)
  return setmetatable({}, {
    __index = t,
    __newindex = function(_, key)
      error(name .. " is read-only (tried to set " .. describe(key) .. ")", 2)
    end,
    __pairs = function() return next, t, nil end,
    __metatable = name,
  })
end

--- A fresh read-only `lunar` module for one sandbox.
-- NB: one per sandbox, never shared: `rawset` on a read-only view writes into the view itself, and
--     must not reach other features.
local function newModule()
  local view = {}
  for k, v in pairs(lunar) do view[k] = v end
  view.fx = readonly(fx, "lunar.fx")
  view.json = readonly(json, "lunar.json")
  return readonly(view, "lunar")
end

lunar.fx = readonly(fx, "lunar.fx")
lunar.json = readonly(json, "lunar.json")

return {
  lunar = readonly(lunar, "lunar"),
  newModule = newModule,
  isEffect = isEffect,
  descriptionOf = descriptionOf,
  -- NB: for the routing's inline lookups (lunar/_compose/init.lua): handle -> description, weak keys.
  descriptions = descriptions,
  isFeature = isFeature,
  copyState = copyState,
  checkAction = checkAction,
  describe = describe,
  readonly = readonly,
  effect = effect,
  definedAt = definedAt,
  hooks = hooks,
  lunarTable = lunar,
  fx = fx,
  Effect = Effect,
  -- NB: for the host's check that the definitions for editors (types/) declare every method.
  methods = { ["lunar.Feature"] = Feature, ["lunar.Effect"] = Effect },
}
