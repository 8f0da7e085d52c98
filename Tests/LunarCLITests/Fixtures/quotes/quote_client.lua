-- quoteClient: quotes from a server whose base URL is in server.txt (a test writes it there).
local lunar = require "lunar"

return lunar.client "quoteClient" {
  fetch = function(deps, n)
    local base = string.match(deps.files.read("server.txt"), "^%s*(.-)%s*$")
    local response = deps.http.get(base .. "/quotes/" .. n)
    if response.status ~= 200 then error("the server answered " .. response.status, 0) end
    return response.body
  end,
}
