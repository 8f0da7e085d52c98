-- Dogs: the list of breeds. It loads them when it appears, filters them by a query, and tells its
-- parent which breed was tapped with a delegate action. It knows nothing of the screen that follows.
-- The breeds come from `dogsClient` (dogs_client.lua).
local lunar = require "lunar"
local fx = lunar.fx

local LOAD = "dogs.load"   -- the request for the breeds
local SHOWN = 12           -- rows listed before "… and N more"

-- The breeds whose name contains `query`, ignoring case, in the order of the list.
local function filtered(breeds, query)
  local needle = string.lower(query or "")
  local found = {}
  for _, breed in ipairs(breeds) do
    if needle == "" or string.find(string.lower(breed.name), needle, 1, true) then
      found[#found + 1] = breed
    end
  end
  return found
end

-- The request for the breeds. Through pcall, so a failure is an action the screen can show
-- ("… deps.http.get failed: cannot reach https://dog.ceo/…"), not an empty list.
local function load(deps)
  return fx.run(function(send)
    local ok, result = pcall(deps.dogsClient.breeds)
    if ok then
      send { type = "breedsLoaded", breeds = result }
    else
      send { type = "breedsFailed", message = tostring(result) }
    end
  end):cancellable(LOAD, { cancelInFlight = true })
end

local function startLoading(state, deps)
  state.status = "loading"
  state.error = nil
  return load(deps)
end

-- A plain copy of a breed of the state, safe to put in an action.
local function copyBreed(breed)
  local subBreeds = {}
  for i, name in ipairs(breed.subBreeds) do subBreeds[i] = name end
  return { name = breed.name, subBreeds = subBreeds }
end

local function capitalized(name)
  return string.upper(string.sub(name, 1, 1)) .. string.sub(name, 2)
end

local function view(state)
  local lines = { "Dogs" }
  if state.status == "idle" or state.status == "loading" then
    lines[#lines + 1] = "  loading breeds…"
  elseif state.status == "failed" then
    lines[#lines + 1] = "  ⚠ could not load the breeds: " .. tostring(state.error)
    lines[#lines + 1] = "  [ retry ]"
  else
    lines[#lines + 1] = "  filter: " .. state.query .. "▏"
    local rows = filtered(state.breeds, state.query)
    for i, breed in ipairs(rows) do
      if i > SHOWN then
        lines[#lines + 1] = "    … and " .. (#rows - SHOWN) .. " more"
        break
      end
      lines[#lines + 1] = "    " .. capitalized(breed.name) .. " ›"
    end
    if #rows == 0 then lines[#lines + 1] = "    no breed matches “" .. state.query .. "”" end
  end
  return table.concat(lines, "\n")
end

return lunar.feature {
  name = "Dogs",
  clients = { require "dogs_client" },
  -- status: "idle" (never appeared), "loading", "loaded" or "failed" (with `error`).
  initial = { query = "", breeds = {}, status = "idle" },
  actions = {
    onAppear = {},
    retryTapped = {},
    breedsLoaded = { breeds = "table" },
    breedsFailed = { message = "string" },
    queryChanged = { query = "string?" },
    breedTapped = { breed = "string" },
    -- For the parent: the actions the list reports, each declared like an action of its own.
    delegate = { action = { breedSelected = { breed = "table" } } },
  },

  reduce = function(state, action, deps)
    if action.type == "onAppear" then
      -- Appearing again (back from a breed) keeps the list it has.
      if state.status ~= "idle" then return end
      return startLoading(state, deps)

    elseif action.type == "retryTapped" then
      if state.status ~= "failed" then return end
      return startLoading(state, deps)

    elseif action.type == "breedsLoaded" then
      state.status = "loaded"
      state.breeds = action.breeds

    elseif action.type == "breedsFailed" then
      state.status = "failed"
      state.error = action.message

    elseif action.type == "queryChanged" then
      state.query = action.query or ""

    elseif action.type == "breedTapped" then
      for _, breed in ipairs(state.breeds) do
        if breed.name == action.breed then
          return fx.send { type = "delegate", action = { type = "breedSelected", breed = copyBreed(breed) } }
        end
      end

    elseif action.type == "delegate" then
      return fx.none   -- for the parent: the list only reports
    end
  end,

  view = view,

  -- The rows the list shows for `query`: what the view lists, for tests and parents.
  filtered = filtered,
}
