-- The breed screen on its own: its picture and its failure.
local test = require "lunar.test"
local Breed = require "breed"
local mocks = require "mocks"

local function hound()
  return Breed:initialWith { name = "hound", subBreeds = { "afghan", "basset" } }
end

test("appearing loads a random picture of the breed", function()
  local client, asked = mocks.client()
  local store = test.store(Breed, { initial = hound(), deps = { dogsClient = client } })

  store:send({ type = "onAppear" }, function(state) state.loading = true end)
  store:receive("imageLoaded", function(state)
    state.loading = false
    state.image = mocks.imageOf("hound")
  end)
  assert(#asked == 1 and asked[1] == "hound", "asked for " .. table.concat(asked, ","))
end)

-- The real client, whose deps.http answers from the recordings in fixtures/http/: a URL has one
-- recording, so offline a breed's "random" picture is the same every time.
test("offline, a breed's random picture is its recorded one, every time", function()
  local recorded = "https://images.dog.ceo/breeds/hound-basset/n02088238_2326.jpg"
  for _ = 1, 2 do
    local store = test.store(Breed, { initial = hound(), clients = { "dogsClient" } })
    store:send({ type = "onAppear" }, function(state) state.loading = true end)
    store:receive("imageLoaded", function(state)
      state.loading = false
      state.image = recorded
    end)
  end
end)

test("offline, a breed without a recorded picture shows why", function()
  local store = test.store(Breed, { initial = Breed:initialWith { name = "unicorn" }, clients = { "dogsClient" } })
  local message
  store:send({ type = "onAppear" }, function(state) state.loading = true end)
  store:receive(function(action)
    message = action.message
    return action.type == "imageFailed"
  end, function(state)
    state.loading = false
    state.error = message
  end)
  assert(message:find("no recorded response for GET https://dog.ceo/api/breed/unicorn/images/random", 1, true), message)
end)

test("dog.ceo's error answer shows as the breed's error", function()
  local notFound = '{"message":"Breed not found (main breed does not exist)","status":"error","code":404}'
  local store = test.store(Breed, {
    initial = Breed:initialWith { name = "unicorn" },
    clients = { "dogsClient" },
    deps = { http = { get = function() return { status = 404, headers = {}, body = notFound } end } },
  })
  store:send({ type = "onAppear" }, function(state) state.loading = true end)
  store:receive("imageFailed", function(state)
    state.loading = false
    state.error = "dog.ceo answered 404 to https://dog.ceo/api/breed/unicorn/images/random: " ..
      "Breed not found (main breed does not exist)"
  end)
end)

test("a name that is not a breed is refused before any request", function()
  local store = test.store(Breed, { initial = Breed:initialWith { name = "../breeds" }, clients = { "dogsClient" } })
  store:send({ type = "onAppear" }, function(state) state.loading = true end)
  store:receive("imageFailed", function(state)
    state.loading = false
    state.error = '"../breeds" is not a breed name (like "hound" or "hound/afghan")'
  end)
end)

test("appearing with a picture keeps it", function()
  local state = hound()
  state.image = mocks.imageOf("hound")
  local store = test.store(Breed, { initial = state })
  store:send { type = "onAppear" }
end)

test("a failed picture shows why, and retry loads one", function()
  local failing = true
  local store = test.store(Breed, {
    initial = hound(),
    deps = { dogsClient = { randomImage = function(breed)
      if failing then error("timed out", 0) end
      return mocks.imageOf(breed)
    end } },
  })

  store:send({ type = "onAppear" }, function(state) state.loading = true end)
  store:receive("imageFailed", function(state)
    state.loading = false
    state.error = "timed out"
  end)
  assert(Breed.view(store:state()):find("no picture: timed out", 1, true), Breed.view(store:state()))

  failing = false
  store:send({ type = "retryTapped" }, function(state)
    state.error = nil
    state.loading = true
  end)
  store:receive("imageLoaded", function(state)
    state.loading = false
    state.image = mocks.imageOf("hound")
  end)
end)

test("the view shows the name, the picture and the sub-breeds", function()
  local state = hound()
  state.image = mocks.imageOf("hound")
  local text = Breed.view(state)
  assert(text == table.concat({
    "‹ Dogs",
    "Hound",
    "  image: https://images.dog.ceo/breeds/hound/hound_1.jpg",
    "  sub-breeds:",
    "    • Afghan",
    "    • Basset",
  }, "\n"), "view was:\n" .. text)
end)

test("a breed without sub-breeds says so", function()
  local text = Breed.view(Breed:initialWith { name = "husky", loading = true })
  assert(text:find("image: loading…", 1, true) and text:find("no sub-breeds", 1, true), text)
end)
