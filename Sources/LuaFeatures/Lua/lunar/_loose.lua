-- Effects a reducer built and dropped. An effect made during a reducer call must end up in what
-- the call returns: returned itself, or inside `fx.merge`, `fx.concat`, `:cancellable(…)`, or a
-- child's effect wrapped by composition. One that does not (`fx.run(…)` without `return`) would
-- silently never run: the host reports it, naming the line that built it.
--
-- The count of such effects is kept by the transaction (`loose`, CLuaTransaction): while it is
-- above zero, the call ends through `finish` (lunar/_effects.lua), which calls `host.reportLoose` here.
local base = require "lunar._base"
local host = require "lunar._host"
local whereCalled = require("lunar._where").called
-- The host's warning: a function of the message, registered by the host.
local warn = require "lunar._warn"
local hooks, descriptionOf = base.hooks, base.descriptionOf
local active, count = host.internals.active, host.internals.loose

local setmetatable, next = setmetatable, next

-- handle -> where it was built, for the effects of the call in progress not yet consumed. Emptied
-- lazily: the first effect of a call finds the count at zero (each call starts it there), and a
-- new table only when a failed call left some behind.
local weakKeys = { __mode = "k" }
local loose = setmetatable({}, weakKeys)

local function consume(handle)
  if loose[handle] ~= nil then
    loose[handle] = nil
    count(-1)
  end
end

--- Called by lunar/_base.lua for every effect made: during a reducer call, the new effect is loose
--- and the effects it combines are not anymore.
function hooks.built(handle, description)
  if not active() then return end
  if count() == 0 and next(loose) ~= nil then loose = setmetatable({}, weakKeys) end
  local inner = description.effect
  if inner ~= nil then consume(inner) end
  local members = description.effects
  if members ~= nil then
    for i = 1, #members do consume(members[i]) end
  end
  -- NB: level 4 is the script: this hook, then `effect` (tail-called by the fx function), then
  --     the fx function's C frame (lunar/_frames.lua).
  local where = description.origin or whereCalled(4)
  -- NB: kept in the description too: an fx.send of an undeclared action names this line.
  description.origin = where
  loose[handle] = where
  count(1)
end

local WHAT = {
  run = "fx.run", send = "fx.send", merge = "fx.merge", concat = "fx.concat", cancel = "fx.cancel",
  debounce = "fx.debounce", throttle = "fx.throttle", cancellable = ":cancellable",
}

--- At the end of a call with loose effects: warns of each one the call did not return.
function host.reportLoose(result)
  if result ~= nil then consume(result) end
  -- NB: the commonest case: the effect returned was the only one built.
  if count() == 0 then return end
  local found = {}
  for handle, where in pairs(loose) do
    local what = WHAT[descriptionOf(handle).kind] or "an effect"
    found[#found + 1] = { where = where, what = what }
  end
  table.sort(found, function(a, b) return a.where < b.where end)
  for _, entry in ipairs(found) do
    warn(entry.where .. ": an effect (" .. entry.what .. ") was built but not returned, so it never runs: " ..
      "`return` it from the reducer, or combine several with fx.merge(…)")
  end
  loose = setmetatable({}, weakKeys)
  count(-count())
end
