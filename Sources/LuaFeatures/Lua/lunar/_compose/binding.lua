-- `lunar._compose.binding`, TCA's BindingReducer: `lunar.binding { title = "string",
-- ["syncUp.duration"] = "number" }` in a body declares the state fields a view (a test, the prompt)
-- may set from outside, and their types. `{ type = "binding", path = "title", value = "Daily" }`
-- sets state.title when the path is declared and the value fits its type, before the reducers
-- after it in the body see the action (put it first, as TCA's `BindingReducer()`); anything else
-- fails, naming the feature and the path.
local base = require "lunar._base"
local host = require "lunar._host"
local body = require "lunar._compose.body"
local lunar, describe, copyState = base.lunarTable, base.describe, base.copyState
local entry, fail = body.entry, body.fail

local type, pairs, rawget, error, tonumber, getmetatable = type, pairs, rawget, error, tonumber, getmetatable
local mathtype = math.type
local sort, concat = table.sort, table.concat

local TYPES = { string = true, number = true, integer = true, boolean = true, table = true, any = true }

--- lunar.binding { title = "string", ["syncUp.duration"] = "number" }: the fields a `binding`
--- action may set, by dotted path, with their types ("string", "number", "integer", "boolean",
--- "table", "any"; a `?` allows nil).
function lunar.binding(declared)
  if type(declared) ~= "table" then
    error("lunar.binding expects the fields it binds and their types, like { title = \"string\" }, got " ..
      describe(declared), 2)
  end
  local paths, names = {}, {}
  for path, fieldType in pairs(declared) do
    if type(path) ~= "string" or not path:match("^[%w_]+[%w_%.]*$") or path:find("%.%.") or path:sub(-1) == "." then
      error("lunar.binding: a field is named by its path from the feature's state, like \"title\" or " ..
        "\"syncUp.duration\", got " .. describe(path), 2)
    end
    local optional = type(fieldType) == "string" and fieldType:sub(-1) == "?"
    local bare = optional and fieldType:sub(1, -2) or fieldType
    if not TYPES[bare] then
      error("lunar.binding: " .. describe(path) .. " has an unknown type " .. describe(fieldType) ..
        "; types are string, number, integer, boolean, table, any, with a `?` to allow nil", 2)
    end
    local segments = {}
    for segment in path:gmatch("[^%.]+") do
      segments[#segments + 1] = segment:match("^%d+$") and tonumber(segment) or segment
    end
    paths[path] = { type = bare, optional = optional, segments = segments }
    names[#names + 1] = path
  end
  if #names == 0 then
    error("lunar.binding needs at least one field, like { title = \"string\" }", 2)
  end
  sort(names)
  return entry { kind = "binding", key = "binding", bindings = paths, names = names }
end

local function fits(value, spec)
  if value == nil then return spec.optional end
  if spec.type == "any" then return true end
  if spec.type == "integer" then return mathtype(value) == "integer" end
  return type(value) == spec.type
end

--- The problem with a `binding` action for the binding entry `e` of `owner`, or nil.
local function problem(e, owner, action)
  local path = rawget(action, "path")
  for field in pairs(action) do
    if field ~= "type" and field ~= "path" and field ~= "value" then
      return "a binding action is { type = \"binding\", path = …, value = … }; it has no field " .. describe(field)
    end
  end
  local spec = type(path) == "string" and e.bindings[path] or nil
  if spec == nil then
    return owner .. " has no binding for " .. describe(path) ..
      (type(path) == "string" and host.suggestion(path, e.names) or "") .. "; it binds " .. concat(e.names, ", ")
  end
  local value = rawget(action, "value")
  if not fits(value, spec) then
    return owner .. "'s binding " .. describe(path) .. " takes " ..
      (spec.type == "integer" and "an integer" or spec.type == "any" and "any value" or ("a " .. spec.type)) ..
      (spec.optional and " or nil" or "") .. ", got " .. describe(value)
  end
  return nil
end

-- Sets the bound field; the binding itself has no effect.
local function route(name, e, state, _, action, _, dismissals)
  local wrong = problem(e, name, action)
  if wrong ~= nil then fail(name, wrong) end
  local spec = e.bindings[rawget(action, "path")]
  local segments, t = spec.segments, state
  for i = 1, #segments - 1 do
    t = t[segments[i]]
    if type(t) ~= "table" then
      fail(name, "binding " .. describe(rawget(action, "path")) .. ": state." ..
        concat(segments, ".", 1, i) .. " is " .. describe(t) .. ", not a table")
    end
  end
  local value = rawget(action, "value")
  -- NB: a copy, so that the action a caller keeps is not a part of the state.
  if type(value) == "table" and (getmetatable(value) == nil or lunar.isArray(value)) then
    value = copyState(value, 0)
  end
  t[segments[#segments]] = value
  return nil, dismissals
end

return { route = route, problem = problem }
