-- Breed: one breed's screen: its name, a random picture loaded when the screen appears, and its
-- sub-breeds. It knows nothing of the list that opened it; closing asks the parent to dismiss it.
-- The picture comes from `dogsClient` (dogs_client.lua).
local lunar = require "lunar"
local fx = lunar.fx

-- NB: Ids belong to this child instance: dismissing the screen cancels the effects it started,
-- this one included, whatever the id is.
local IMAGE = "breed.image"

-- The request for a picture of `name` (a value captured here: the effect runs later).
local function loadImage(name, deps)
  return fx.run(function(send)
    local ok, result = pcall(deps.dogsClient.randomImage, name)
    if ok then
      send { type = "imageLoaded", url = result }
    else
      send { type = "imageFailed", message = tostring(result) }
    end
  end):cancellable(IMAGE, { cancelInFlight = true })
end

local function capitalized(name)
  return string.upper(string.sub(name, 1, 1)) .. string.sub(name, 2)
end

local function view(state)
  local lines = { "‹ Dogs", capitalized(state.name) }
  if state.loading then
    lines[#lines + 1] = "  image: loading…"
  elseif state.error then
    lines[#lines + 1] = "  ⚠ no picture: " .. state.error
    lines[#lines + 1] = "  [ retry ]"
  elseif state.image then
    lines[#lines + 1] = "  image: " .. state.image
  end
  if #state.subBreeds == 0 then
    lines[#lines + 1] = "  no sub-breeds"
  else
    lines[#lines + 1] = "  sub-breeds:"
    for _, name in ipairs(state.subBreeds) do
      lines[#lines + 1] = "    • " .. capitalized(name)
    end
  end
  return table.concat(lines, "\n")
end

return lunar.feature {
  name = "Breed",
  clients = { require "dogs_client" },
  -- image: the picture's URL once loaded; error: why it could not be.
  initial = { name = "", subBreeds = {}, loading = false },
  actions = {
    onAppear = {},
    retryTapped = {},
    imageLoaded = { url = "string" },
    imageFailed = { message = "string" },
    closeTapped = {},
  },

  reduce = function(state, action, deps)
    if action.type == "onAppear" then
      if state.image or state.loading then return end
      state.loading = true
      return loadImage(state.name, deps)

    elseif action.type == "retryTapped" then
      if not state.error then return end
      state.error = nil
      state.loading = true
      return loadImage(state.name, deps)

    elseif action.type == "imageLoaded" then
      state.loading = false
      state.image = action.url

    elseif action.type == "imageFailed" then
      state.loading = false
      state.error = action.message

    elseif action.type == "closeTapped" then
      return fx.dismiss()
    end
  end,

  view = view,
}
