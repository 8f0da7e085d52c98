-- Declared actions. A feature may list its actions and their fields:
--
--   actions = {
--     increment = {},
--     add = { title = "string", tags = "table?" },   -- `?`: the field may be left out
--   },
--
-- Field types: "string", "number", "integer", "boolean", "table", "any". When a feature declares
-- its actions, an action of another type, a missing or extra field, or a field of the wrong type
-- is refused wherever an action enters it (the prompt, JSON input, tests, effects), with the
-- nearest declared name as a suggestion. A composed feature's children are declared by its body:
-- `{ type = "todos", id = 3, action = … }` is checked against the child's own declarations.
-- A feature that declares nothing accepts any action.
local base = require "lunar._base"
local host = require "lunar._host"
-- The host's "did you mean" (Swift, `LuaFeature.nearest`): one rule for every suggestion Lunar makes.
local nearest = require "lunar._nearest"
local hooks, describe, isFeature = base.hooks, base.describe, base.isFeature

local type, pairs, rawget, error = type, pairs, rawget, error
local mathtype = math.type
local sort, concat = table.sort, table.concat

local FIELD_TYPES = { string = true, number = true, integer = true, boolean = true, table = true, any = true }
local FIELD_TYPE_NAMES = "string, number, integer, boolean, table, any"

--- " (did you mean \"x\"?)" for the name of `names` nearest to `name`, when one is near enough.
local function suggestion(name, names)
  local best = nearest(name, names)
  if best ~= nil then return " (did you mean " .. describe(best) .. "?)" end
  return ""
end
host.suggestion = suggestion
hooks.suggestion = suggestion

local function sortedKeys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  sort(keys)
  return keys
end

-- The children a body declares, by the action type that addresses them.
local function childrenOf(feature)
  local body = rawget(feature, "body")
  if type(body) ~= "table" then return nil end
  local children = {}
  for i = 1, #body do
    local e = body[i]
    if e.kind ~= "reduce" and e.key ~= nil then children[e.key] = e end
  end
  return children
end

-- Reads one set of declared actions (a feature's, or a field's nested set): { [type] = spec },
-- where spec maps each field to { type, optional } or, for a nested action, { actions = set }.
local function parseActions(declared, where, level, children)
  local shape = "like { increment = {}, add = { title = \"string\" } }"
  if type(declared) ~= "table" or isFeature(declared) then
    error(where .. " lists actions and their fields, " .. shape .. ", got " .. describe(declared), level + 1)
  end
  local result = {}
  for actionType, fields in pairs(declared) do
    if type(actionType) ~= "string" or actionType == "" then
      error(where .. " is keyed by action type, " .. shape .. ", got " .. describe(actionType), level + 1)
    end
    local here = where .. "." .. actionType
    if children ~= nil and children[actionType] ~= nil then
      error(here .. " is the action of the child at state." .. actionType ..
        "; the body declares it (leave it out of `actions`)", level + 1)
    end
    if type(fields) ~= "table" then
      error(here .. " lists its fields, like { title = \"string\" } (`{}` for none), got " .. describe(fields),
        level + 1)
    end
    local spec = {}
    for field, fieldType in pairs(fields) do
      if type(field) ~= "string" or field == "type" then
        error(here .. " names its fields by string (other than `type`), got " .. describe(field), level + 1)
      end
      if type(fieldType) == "table" then
        -- NB: a field holding an action of its own (a delegate's): its possible actions, declared alike.
        spec[field] = { nested = parseActions(fieldType, here .. "." .. field, level + 1) }
      else
        if type(fieldType) ~= "string" then
          error(here .. "." .. field .. " must be a type name (" .. FIELD_TYPE_NAMES ..
            ", with a `?` for an optional field) or the actions it may hold, got " .. describe(fieldType), level + 1)
        end
        local optional = fieldType:sub(-1) == "?"
        local bare = optional and fieldType:sub(1, -2) or fieldType
        if not FIELD_TYPES[bare] then
          error(here .. "." .. field .. ": unknown type " .. describe(fieldType) ..
            suggestion(bare, sortedKeys(FIELD_TYPES)) .. "; types are " .. FIELD_TYPE_NAMES ..
            ", with a `?` for an optional field", level + 1)
        end
        spec[field] = { type = bare, optional = optional }
      end
    end
    result[actionType] = spec
  end
  return result
end

--- Reads a feature's `actions` when `lunar.feature` makes it.
function hooks.actions(feature, level)
  local declared = feature.actions
  if declared == nil then return nil end
  return parseActions(declared, "feature " .. feature.name .. ": actions", level + 1, childrenOf(feature) or {})
end

local function fits(value, fieldType)
  if fieldType == "any" then return true end
  if fieldType == "integer" then return mathtype(value) == "integer" end
  return type(value) == fieldType
end

local validate

local function fieldKind(spec)
  if spec.nested ~= nil then return "an action (" .. concat(sortedKeys(spec.nested), ", ") .. ")" end
  return spec.type == "integer" and "an integer" or ("a " .. spec.type)
end

-- The problem with `action` for a set of declared actions (`owner` names it in messages; `extra`
-- are more types it takes, its children's).
local function validateIn(declared, action, owner, extra)
  if type(action) ~= "table" or type(rawget(action, "type")) ~= "string" then
    return "an action is a table with a string `type`, like { type = \"increment\" }, got " .. describe(action)
  end
  local actionType = rawget(action, "type")
  local spec = declared[actionType]
  if spec == nil then
    local names = sortedKeys(declared)
    for _, key in ipairs(extra or {}) do names[#names + 1] = key end
    sort(names)
    if #names == 0 then
      return "unknown action " .. describe(actionType) .. "; " .. owner ..
        " declares no actions (`actions = {}`): it takes none"
    end
    return "unknown action " .. describe(actionType) .. suggestion(actionType, names) .. "; " .. owner ..
      " declares " .. concat(names, ", ")
  end
  for field, value in pairs(action) do
    if field ~= "type" and spec[field] == nil then
      local fields = sortedKeys(spec)
      return "action " .. describe(actionType) .. " has no field " .. describe(field) ..
        (type(field) == "string" and suggestion(field, fields) or "") ..
        (#fields == 0 and "; it has no fields" or ("; its fields are " .. concat(fields, ", ")))
    end
    local fieldSpec = spec[field]
    if fieldSpec ~= nil and fieldSpec.nested ~= nil then
      local problem = validateIn(fieldSpec.nested, value, "its field " .. describe(field))
      if problem ~= nil then
        return "action " .. describe(actionType) .. ", field " .. describe(field) .. ": " .. problem
      end
    elseif fieldSpec ~= nil and not fits(value, fieldSpec.type) then
      return "action " .. describe(actionType) .. ": field " .. describe(field) .. " must be " ..
        fieldKind(fieldSpec) .. ", got " .. describe(value)
    end
  end
  for _, field in ipairs(sortedKeys(spec)) do
    if not spec[field].optional and rawget(action, field) == nil then
      return "action " .. describe(actionType) .. " needs its field " .. describe(field) .. " (" ..
        fieldKind(spec[field]) .. ")"
    end
  end
  return nil
end

-- A wrapped child action: its `action` checked against the child (any destination of a stack).
local function validateChild(feature, entry, action)
  -- NB: required here, not above: composition loads after this module.
  if entry.kind == "binding" then return require("lunar._compose.binding").problem(entry, feature.name, action) end
  local sub = rawget(action, "action")
  if type(sub) ~= "table" or type(rawget(sub, "type")) ~= "string" then
    return nil -- NB: composition says what a wrapped action must look like.
  end
  if entry.kind ~= "scope" and entry.kind ~= "forEach" and rawget(sub, "type") == "dismiss" then return nil end
  -- NB: a stack's own actions (push, popFrom) are checked by the stack.
  if entry.kind == "stack" and rawget(action, "id") == nil then return nil end
  local problem
  if entry.kind == "destination" then
    local case = entry.destinations[rawget(sub, "type")]
    local inner = rawget(sub, "action")
    if case == nil or type(inner) ~= "table" or type(rawget(inner, "type")) ~= "string" then
      return nil -- NB: the destination says what its actions must look like.
    end
    problem = validate(case, inner)
  elseif entry.kind == "stack" then
    for _, screen in ipairs(sortedKeys(entry.destinations)) do
      problem = validate(entry.destinations[screen], sub)
      if problem == nil then return nil end
    end
  else
    problem = validate(entry.child, sub)
  end
  if problem == nil then return nil end
  return "in the action for state." .. entry.key .. " of " .. feature.name .. ": " .. problem
end

--- The problem with `action` for `feature`, or nil when it is one of its declared actions (or
--- the feature declares none).
function validate(feature, action)
  if type(action) ~= "table" or type(rawget(action, "type")) ~= "string" then
    return "an action is a table with a string `type`, like { type = \"increment\" }, got " .. describe(action)
  end
  local actionType = rawget(action, "type")
  local children = childrenOf(feature)
  local entry = children and children[actionType]
  if entry ~= nil then return validateChild(feature, entry, action) end
  local declared = rawget(feature, "declaredActions")
  if declared == nil then return nil end
  local extra = {}
  for key in pairs(children or {}) do extra[#extra + 1] = key end
  return validateIn(declared, action, feature.name, extra)
end

host.validateAction = validate
hooks.validateAction = validate

--- The action types `feature` declares, its children's keys included; nil when it declares none.
function host.declaredTypes(feature)
  local declared = rawget(feature, "declaredActions")
  if declared == nil then return nil end
  local names = sortedKeys(declared)
  for key in pairs(childrenOf(feature) or {}) do names[#names + 1] = key end
  sort(names)
  return names
end
hooks.declaredTypes = host.declaredTypes

--- Whether `feature` or a feature of its body (at any depth) declares its actions.
local function declares(feature, depth)
  if rawget(feature, "declaredActions") ~= nil then return true end
  if depth > 50 then return false end
  for _, entry in pairs(childrenOf(feature) or {}) do
    if entry.destinations ~= nil then
      for _, destination in pairs(entry.destinations) do
        if declares(destination, depth + 1) then return true end
      end
    elseif entry.child ~= nil and declares(entry.child, depth + 1) then
      return true
    end
  end
  return false
end
function host.declares(feature) return declares(feature, 0) end

--- Every action type declared in `feature`'s tree (its own, its children's keys, theirs, and
--- "dismiss" for presented children), sorted; nil when a feature of the tree declares none (its
--- literal types cannot be judged).
function host.typesOfTree(feature)
  local seen, complete = {}, true
  local function visit(f, depth)
    local declared = rawget(f, "declaredActions")
    if declared == nil then complete = false return end
    local function collect(set)
      for name, spec in pairs(set) do
        seen[name] = true
        for _, fieldSpec in pairs(spec) do
          if fieldSpec.nested ~= nil then collect(fieldSpec.nested) end
        end
      end
    end
    collect(declared)
    if depth > 50 then return end
    for key, entry in pairs(childrenOf(f) or {}) do
      seen[key] = true
      if entry.kind == "stack" then
        seen.dismiss, seen.push, seen.popFrom = true, true, true
        for _, destination in pairs(entry.destinations) do visit(destination, depth + 1) end
      elseif entry.kind == "destination" then
        seen.dismiss = true
        for name, destination in pairs(entry.destinations) do
          seen[name] = true
          visit(destination, depth + 1)
        end
      elseif entry.kind ~= "binding" then
        if entry.kind == "ifLet" then seen.dismiss = true end
        visit(entry.child, depth + 1)
      end
    end
  end
  visit(feature, 0)
  if not complete then return nil end
  return sortedKeys(seen)
end

--- The keys of a body's children: the types of the wrapped actions a composed feature takes.
function host.childKeys(feature)
  return sortedKeys(childrenOf(feature) or {})
end

--- Every action `feature` takes, at any depth, as a path from it and the action's field names:
--- { path = "todos[].toggle", fields = { "title" } }, with `[]` where an element's id goes, sorted
--- by path. What the prompt completes and names when an action is typed at the wrong level.
function host.actionPaths(feature)
  local found = {}
  local function add(path, fields) if found[path] == nil then found[path] = fields end end
  local function visit(f, prefix, depth)
    if depth > 50 then return end
    for name, spec in pairs(rawget(f, "declaredActions") or {}) do add(prefix .. name, sortedKeys(spec)) end
    for key, entry in pairs(childrenOf(f) or {}) do
      local at = prefix .. key .. ((entry.kind == "forEach" or entry.kind == "stack") and "[]" or "") .. "."
      if entry.kind == "stack" then
        add(at .. "dismiss", {})
        for _, destination in pairs(entry.destinations) do visit(destination, at, depth + 1) end
      else
        if entry.kind == "ifLet" then add(at .. "dismiss", {}) end
        visit(entry.child, at, depth + 1)
      end
    end
  end
  visit(feature, "", 0)
  local list = {}
  for _, path in ipairs(sortedKeys(found)) do list[#list + 1] = { path = path, fields = found[path] } end
  return list
end
