-- Counter: the tutorial's first feature. A count, a fact about it from `factClient`
-- (fact_client.lua), and a timer that counts by itself.
local lunar = require "lunar"
local fx = lunar.fx

local TIMER = "timer"

return lunar.feature {
  name = "Counter",
  clients = { require "fact_client" },
  initial = { count = 0, fact = nil, loading = false, timerRunning = false },
  -- Every action and its fields: any other is refused, with the nearest name.
  actions = {
    increment = {},
    decrement = {},
    factTapped = {},
    factLoaded = { fact = "string" },
    factFailed = { message = "string" },
    toggleTimer = {},
    tick = {},
  },

  reduce = function(state, action, deps)
    local t = action.type
    if t == "increment" then
      state.count = state.count + 1
      state.fact = nil
    elseif t == "decrement" then
      state.count = state.count - 1
      state.fact = nil
    elseif t == "factTapped" then
      state.fact = nil
      state.loading = true
      local n = state.count -- capture the value: the effect runs after this call returns
      return fx.run(function(send)
        send { type = "factLoaded", fact = deps.factClient.fetch(n) }
      end, {
        catch = function(err, send)
          send { type = "factFailed", message = tostring(err) }
        end,
      })
    elseif t == "factLoaded" then
      state.loading = false
      state.fact = action.fact
    elseif t == "factFailed" then
      state.loading = false
      state.fact = "No fact today: " .. action.message
    elseif t == "toggleTimer" then
      state.timerRunning = not state.timerRunning
      if not state.timerRunning then
        return fx.cancel(TIMER)
      end
      return fx.run(function(send)
        while true do
          deps.clock.sleep(1)
          send { type = "tick" }
        end
      end):cancellable(TIMER, { cancelInFlight = true })
    elseif t == "tick" then
      state.count = state.count + 1
    end
  end,

  view = function(state)
    local lines = { "  [ - ]  " .. state.count .. "  [ + ]" }
    if state.loading then
      lines[#lines + 1] = "  loading a fact…"
    elseif state.fact then
      lines[#lines + 1] = "  " .. state.fact
    end
    lines[#lines + 1] = "  timer: " .. (state.timerRunning and "on" or "off")
    return table.concat(lines, "\n")
  end,
}
