-- Run-aways a script can start: each action below would hang a host without limits.
local lunar = require "lunar"
local fx = lunar.fx

local function spin() while true do end end

local Row = lunar.feature {
  name = "Row",
  initial = { id = 0, n = 0 },
  reduce = function(state, action)
    if action.type == "touch" then state.n = state.n + 1 end
  end,
}

return lunar.feature {
  name = "Runaway",
  initial = { count = 0, rows = { { id = 1, n = 0 } } },
  body = {
    lunar.forEach("rows", Row),
    lunar.reduce(function(state, action, deps)
      local t = action.type
      if t == "increment" then
        state.count = state.count + 1
      elseif t == "handler" then
        state.count = -1
        xpcall(spin, spin)
      elseif t == "effectHandler" then
        return fx.run(function() xpcall(spin, spin) end)
      elseif t == "plant" then
        -- A forEach array whose length and missing entries run forever: state refuses it (a metatable).
        state.rows = setmetatable({ { id = 1, n = 0 } }, { __len = spin, __index = spin, __eq = spin })
      elseif t == "debounce" then
        return fx.debounce("d", 1e19, { type = "increment" })
      elseif t == "throttle" then
        return fx.throttle("t", 1e21, { type = "increment" })
      elseif t == "sleep" then
        return fx.run(function() deps.clock.sleep(1e300) end)
      end
    end),
  },
}
