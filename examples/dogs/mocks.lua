-- Test doubles shared by the Dogs tests: a few breeds, and a mock of dogsClient that answers at
-- once or after a wait on the store's test clock.
local lunar = require "lunar"

local mocks = {}

-- A short list, in the order the client returns it (sorted, as dog.ceo's keys are).
function mocks.breeds()
  return {
    { name = "bulldog", subBreeds = { "boston", "english", "french" } },
    { name = "hound", subBreeds = { "afghan", "basset" } },
    { name = "husky", subBreeds = {} },
    { name = "shiba", subBreeds = {} },
    { name = "terrier", subBreeds = { "border", "cairn" } },
  }
end

function mocks.imageOf(breed)
  return "https://images.dog.ceo/breeds/" .. breed .. "/" .. breed .. "_1.jpg"
end

-- A dogsClient mock that answers at once, and remembers the breeds it was asked pictures of.
function mocks.client()
  local asked = {}
  local client = {
    breeds = function() return mocks.breeds() end,
    randomImage = function(breed)
      asked[#asked + 1] = breed
      return mocks.imageOf(breed)
    end,
  }
  return client, asked
end

-- Mocks answer at once. To keep a request in flight, a mock waits on the store's test clock,
-- which only a feature's `deps` reach: this copy of `feature` (which uses dogsClient, so that
-- tests can mock it) hands its `deps.clock` over, and `sleep(seconds)` waits on it from inside a
-- mock.
function mocks.withClock(feature)
  local clock
  local copy = lunar.feature {
    name = feature.name,
    clients = { require "dogs_client" },
    initial = feature.initial,
    view = feature.view,
    reduce = function(state, action, deps)
      clock = deps.clock
      return feature.reduce(state, action, deps)
    end,
  }
  local function sleep(seconds) clock.sleep(seconds) end
  return copy, sleep
end

return mocks
