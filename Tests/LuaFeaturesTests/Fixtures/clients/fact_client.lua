-- A client written in Lua over deps.http.
local lunar = require "lunar"

return lunar.client "factClient" {
  fetch = function(deps, n)
    local response = deps.http.get("http://numbersapi.test/" .. n)
    if response.status ~= 200 then error("numbersapi answered " .. response.status, 0) end
    return response.body
  end,
  describe = function(_, n)
    return "number " .. n
  end,
}
