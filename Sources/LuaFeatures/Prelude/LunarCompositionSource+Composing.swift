extension LunarCompositionSource {
  /// Finding removed children from the journal (and checking touched containers), and turning a
  /// body into a reducer.
  static let composing = #"""
local function addID(ids, element)
  if type(element) ~= "table" then return ids end
  local id = rawget(element, "id")
  if id == nil or not rawequal(id, id) then return ids end
  ids = ids or {}
  ids[id] = true
  return ids
end

-- The ids of the elements state[key] held before this action and that were written over; whether
-- it was touched at all.
local function previousIDs(real, key, items)
  local n = st[COUNT]
  local touched, ids, replaced = false, nil, nil
  for i = 1, n, 4 do
    local t = journal[i]
    if rawequal(t, items) then
      touched = true
      ids = addID(ids, journal[i + 2])
    elseif rawequal(t, real) and rawequal(journal[i + 1], key) then
      touched = true
      local old = journal[i + 2]
      if type(old) == "table" and not rawequal(old, items) then
        replaced = replaced or {}
        replaced[old] = true
        for j = 1, rawlen(old) do ids = addID(ids, rawget(old, j)) end
      end
    end
  end
  if replaced ~= nil then
    for i = 1, n, 4 do
      if replaced[journal[i]] then ids = addID(ids, journal[i + 2]) end
    end
  end
  return touched, ids
end

local function cancelChild(effects, count, key, identity)
  count = count + 1
  effects = effects or {}
  effects[count] = effect { kind = "cancelChild", key = key, identity = identity }
  return effects, count
end

-- Checks a touched array of children and cancels the effects of those no longer in it.
local function checkElements(name, e, real, effects, count)
  local key = e.key
  local items = rawget(real, key)
  local touched, ids = previousIDs(real, key, items)
  if not touched then return effects, count end
  if items ~= nil and type(items) ~= "table" then
    fail(name, "state." .. key .. " must be an array of child states, got " .. describe(items))
  end
  local seen = {}
  for i = 1, items and rawlen(items) or 0 do
    local element = rawget(items, i)
    local at = "state." .. key .. "[" .. i .. "]"
    if type(element) ~= "table" then fail(name, at .. " is " .. describe(element) .. ", not a child state (a table)") end
    local id = rawget(element, "id")
    if e.kind == "stack" then
      if mathtype(id) ~= "integer" then
        fail(name, at .. " has no stack id (push entries with lunar.push(state." .. key .. ", screen, state))")
      end
      local screen = rawget(element, "screen")
      if e.destinations[screen] == nil then
        fail(name, at .. " goes to " .. describe(screen) .. ", which is not a destination of lunar.stack(" ..
          describe(key) .. ") (destinations: " .. e.names .. ")")
      end
      if type(rawget(element, "state")) ~= "table" then
        fail(name, at .. ".state must be the state of " .. describe(screen) .. " (a table), got " ..
          describe(rawget(element, "state")))
      end
    elseif (type(id) ~= "string" and type(id) ~= "number") or id ~= id then
      fail(name, at .. " needs an `id` (a string or number) for lunar.forEach(" .. describe(key) .. "), got " .. describe(id))
    end
    if seen[id] then fail(name, "two elements of state." .. key .. " have the id " .. showID(id)) end
    -- NB: a table id is kept by identity: no __eq of a script's is ever called.
    seen[id] = true
  end
  if ids ~= nil then
    for id in next, ids do
      if not seen[id] then effects, count = cancelChild(effects, count, key, id) end
    end
  end
  return effects, count
end

-- Cancels the effects of a presented child that went away or was replaced by another identity.
local function checkPresented(name, e, real, effects, count)
  local key = e.key
  for i = 1, st[COUNT], 4 do
    if rawequal(journal[i], real) and rawequal(journal[i + 1], key) then
      local before, now = journal[i + 2], rawget(real, key)
      if now ~= nil and type(now) ~= "table" then
        fail(name, "state." .. key .. " must be the state of a presented child (a table) or nil, got " .. describe(now))
      end
      if type(before) == "table" and not rawequal(before, now) then
        local identity = rawget(before, "id")
        if now == nil or not rawequal(rawget(now, "id"), identity) then
          effects, count = cancelChild(effects, count, key, identity)
        end
      end
      return effects, count
    end
  end
  return effects, count
end

-- Whether this action wrote to `real` itself or to one of its containers: only then can a child
-- have gone (a write inside a child cannot remove it).
local function touches(real, containers, containerCount)
  for i = 1, st[COUNT], 4 do
    local t = journal[i]
    if rawequal(t, real) then return true end
    for c = 1, containerCount do
      if rawequal(t, rawget(real, containers[c].key)) then return true end
    end
  end
  return false
end

---------------------------------------------------------------------------------------------------
-- A body becomes a reducer

function hooks.compose(feature, level)
  local name, body = feature.name, feature.body
  if type(body) ~= "table" or entries[body] then
    error("feature " .. name .. ": `body` must be a list like { lunar.forEach(\"todos\", Todo), lunar.reduce(fn) }, got " ..
      describe(body), level + 1)
  end
  local list, containers, stackEntries, keys, size = {}, {}, {}, {}, 0
  for _ in pairs(body) do size = size + 1 end
  if size == 0 or size ~= #body then
    error("feature " .. name .. ": `body` must be a non-empty list of lunar.scope, lunar.forEach, lunar.ifLet, " ..
      "lunar.stack and lunar.reduce", level + 1)
  end
  local origin = nil
  for i = 1, #body do
    local e = body[i]
    if not entries[e] then
      error("feature " .. name .. ": body[" .. i .. "] is " .. describe(e) ..
        "; expected lunar.scope, lunar.forEach, lunar.ifLet, lunar.stack or lunar.reduce", level + 1)
    end
    list[i] = e
    if e.kind == "reduce" then
      origin = origin or e.origin
    else
      if keys[e.key] then
        error("feature " .. name .. ": two children of the body use state." .. e.key, level + 1)
      end
      keys[e.key] = true
      if e.kind ~= "scope" then containers[#containers + 1] = e end
      if e.kind == "stack" then stackEntries[#stackEntries + 1] = e end
      origin = origin or (e.child and e.child.origin)
    end
  end
  local n, containerCount, stackCount = #list, #containers, #stackEntries

  -- `root`: the state table behind `state` when the host's call passes it (a store's own feature).
  -- NB: the store's bound call passes `root` (the state table) and `instance` (made current here).
  local function run(state, action, deps, root, instance)
    if instance ~= nil then current, depth = instance, 0 end
    local proxied = root or realOf(state)    -- nil when `state` is a plain table
    local real = proxied or state
    depth = depth + 1
    for s = 1, stackCount do
      local items = rawget(real, stackEntries[s].key)
      if type(items) == "table" then stacks[items] = stackEntries[s] end
    end
    local actionType = rawget(action, "type")
    local effects, count, dismissals = nil, 0, nil
    for i = 1, n do
      local e = list[i]
      local result = nil
      if e.kind == "reduce" then
        result = user(e.fn, state, action, deps)
        if result ~= nil then
          local description = descriptionOf(result)
          if description == nil then
            fail(name, "lunar.reduce (" .. e.origin .. ") returned " .. describe(result) ..
              "; return an effect from lunar.fx (or nothing)")
          end
          if description.kind == "none" then result = nil end
        end
      elseif actionType == e.key then
        if e.kind == "forEach" then
          -- NB: inlined route(): the path of every row action.
          local sub = rawget(action, "action")
          if not isAction(sub) then childAction(name, e, action) end
          local id, element = elementOf(name, e, state, proxied, action, root ~= nil)
          result = user(e.child.reduce, element, sub, deps)
          if result ~= nil then result = childEffect(result, e.child, e.key, id, id, "forEach") end
        else
          result, dismissals = route(name, e, state, real, action, deps, dismissals)
        end
      end
      if result ~= nil then
        count = count + 1
        if effects == nil then effects = { result } else effects[count] = result end
      end
    end
    if dismissals ~= nil then applyDismissals(dismissals, state, real) end
    -- NB: at the root, journal[0] says whether the call made a write at a path of at most one
    --     key (journal.c); without one no container can have been touched (a row's own writes are
    --     deeper), and the journal need not be scanned.
    if containerCount > 0 and (root == nil or journal[0]) and touches(real, containers, containerCount) then
      for c = 1, containerCount do
        local e = containers[c]
        if e.kind == "ifLet" then
          effects, count = checkPresented(name, e, real, effects, count)
        else
          effects, count = checkElements(name, e, real, effects, count)
        end
      end
    end
    depth = depth - 1
    if count == 0 then return nil end
    if count == 1 then return effects[1] end
    return effect { kind = "merge", effects = effects }
  end

  -- NB: the routing above is host code: it runs outside the instruction budget, which counts the
  --     author's reducers (called through `user`). An error leaves the budget on. (A store's own
  --     feature skips this wrapper: its bound call switches the budget itself, see host.bind.)
  local function reduce(state, action, deps)
    untimed()
    local result = run(state, action, deps)
    timed()
    return result
  end

  composedReducers[reduce] = run
  return reduce, origin or name
end

return true
"""#
}
