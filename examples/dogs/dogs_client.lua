-- dogsClient: dog.ceo's API, which answers { "message": …, "status": "success" }.
--
-- Its requests go through deps.http: offline (the default), the answers recorded in
-- fixtures/http/ come back, so a breed's "random" picture is the same every time; `--deps live`
-- asks dog.ceo, and `--deps record` also writes what it answers to fixtures/http/.
local lunar = require "lunar"

local API = "https://dog.ceo/api/"

-- The `message` of dog.ceo's answer to `path`, of Lua type `kind`, or an error saying what came
-- back instead.
local function message(deps, path, kind)
  local response = deps.http.get(API .. path)
  local ok, answer = pcall(lunar.json.decode, response.body)
  if not ok or type(answer) ~= "table" then answer = {} end
  if response.status ~= 200 then
    local said = type(answer.message) == "string" and (": " .. answer.message) or ""
    error("dog.ceo answered " .. response.status .. " to " .. API .. path .. said, 0)
  end
  if answer.status ~= "success" or type(answer.message) ~= kind then
    error("dog.ceo's answer to " .. API .. path .. " is not { message = <" .. kind .. ">, status = \"success\" }", 0)
  end
  return answer.message
end

-- A breed as dog.ceo spells it in a path: "hound", or "hound/afghan" for a sub-breed.
local function checked(breed)
  if type(breed) ~= "string" or not (breed:match("^[%w-]+$") or breed:match("^[%w-]+/[%w-]+$")) then
    error(string.format("%q is not a breed name (like \"hound\" or \"hound/afghan\")", tostring(breed)), 0)
  end
  return breed
end

return lunar.client "dogsClient" {
  -- Every breed, as { name = "hound", subBreeds = { "afghan", … } }, sorted by name (the API's
  -- object has no order).
  breeds = function(deps)
    local breeds = {}
    for name, subBreeds in pairs(message(deps, "breeds/list/all", "table")) do
      breeds[#breeds + 1] = { name = name, subBreeds = subBreeds }
    end
    table.sort(breeds, function(a, b) return a.name < b.name end)
    return breeds
  end,

  -- The URL of a random picture of `breed`.
  randomImage = function(deps, breed)
    return message(deps, "breed/" .. checked(breed) .. "/images/random", "string")
  end,
}
