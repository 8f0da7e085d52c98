-- factClient: a fact about a number, from numbersapi.com, which answers in plain text.
--
-- Its requests go through deps.http: offline (the default), the answers recorded in
-- fixtures/http/ come back; `--deps live` asks numbersapi.com, and `--deps record` also writes what
-- it answers to fixtures/http/.
local lunar = require "lunar"

return lunar.client "factClient" {
  fetch = function(deps, n)
    local response = deps.http.get("http://numbersapi.com/" .. n)
    if response.status ~= 200 then
      error("numbersapi.com answered " .. response.status .. " for " .. n, 0)
    end
    return response.body
  end,
}
