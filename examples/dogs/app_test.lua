-- The two screens composed: navigation, dismissal, failures, as the tutorial's app tests and more.
local test = require "lunar.test"
local App = require "feature"
local mocks = require "mocks"

local function loadedApp()
  return { dogs = { query = "", breeds = mocks.breeds(), status = "loaded" } }
end

local function houndDetail()
  return { id = "hound", name = "hound", subBreeds = { "afghan", "basset" }, loading = false }
end

-- Taps `breed` in the list and asserts the screen presented for it, up to its onAppear.
local function select(store, breed, detail)
  store:send { type = "dogs", action = { type = "breedTapped", breed = breed } }
  store:receive("dogs", function(state) state.detail = detail end)
  store:receive({ type = "detail", action = { type = "onAppear" } }, function(state) state.detail.loading = true end)
end

test("the app loads the list when it appears", function()
  local client = mocks.client()
  local store = test.store(App, { deps = { dogsClient = client } })

  store:send({ type = "dogs", action = { type = "onAppear" } }, function(state) state.dogs.status = "loading" end)
  store:receive({ type = "dogs", action = { type = "breedsLoaded", breeds = mocks.breeds() } }, function(state)
    state.dogs.status = "loaded"
    state.dogs.breeds = mocks.breeds()
  end)
end)

test("selecting a breed presents it and loads its picture; dismissing goes back to the list", function()
  local client = mocks.client()
  local store = test.store(App, { initial = loadedApp(), deps = { dogsClient = client } })

  select(store, "hound", houndDetail())
  store:receive("detail", function(state)
    state.detail.loading = false
    state.detail.image = mocks.imageOf("hound")
  end)
  store:send({ type = "detail", action = { type = "dismiss" } }, function(state) state.detail = nil end)
end)

test("the breed's close button dismisses it", function()
  local state = loadedApp()
  state.detail = houndDetail()
  state.detail.image = mocks.imageOf("hound")
  local store = test.store(App, { initial = state })

  store:send { type = "detail", action = { type = "closeTapped" } }
  store:receive({ type = "detail", action = { type = "dismiss" } }, function(s) s.detail = nil end)
end)

test("dismissing the breed before its picture arrives cancels the request", function()
  local app, sleep = mocks.withClock(App)
  local arrived = false
  local store = test.store(app, {
    initial = loadedApp(),
    deps = { dogsClient = { randomImage = function(breed)
      sleep(2)
      arrived = true
      return mocks.imageOf(breed)
    end } },
  })

  select(store, "hound", houndDetail())
  store:advance(1)                          -- half-way through the request
  store:send({ type = "detail", action = { type = "dismiss" } }, function(state) state.detail = nil end)
  store:advance(5)
  -- The exhaustive store fails the test if imageLoaded ever arrives; the mock never finishes.
  assert(not arrived, "the request went on after the screen was dismissed")
end)

test("presenting another breed cancels the first one's picture", function()
  local app, sleep = mocks.withClock(App)
  local store = test.store(app, {
    initial = loadedApp(),
    deps = { dogsClient = { randomImage = function(breed)
      sleep(1)
      return mocks.imageOf(breed)
    end } },
  })

  select(store, "hound", houndDetail())
  select(store, "husky", { id = "husky", name = "husky", subBreeds = {}, loading = false })
  store:advance(1)
  store:receive("detail", function(state)
    state.detail.loading = false
    state.detail.image = mocks.imageOf("husky")
  end)
end)

test("a failed list load shows the error on screen, and retry works", function()
  local unreachable = "deps.http.get failed: cannot reach https://dog.ceo/api/breeds/list/all: " ..
    "the network is unreachable"
  local failing = true
  local store = test.store(App, {
    deps = { dogsClient = { breeds = function()
      if failing then error(unreachable, 0) end
      return mocks.breeds()
    end } },
  })

  store:send({ type = "dogs", action = { type = "onAppear" } }, function(state) state.dogs.status = "loading" end)
  store:receive("dogs", function(state)
    state.dogs.status = "failed"
    state.dogs.error = unreachable
  end)
  assert(App.view(store:state()) == table.concat({
    "Dogs",
    "  ⚠ could not load the breeds: " .. unreachable,
    "  [ retry ]",
  }, "\n"), App.view(store:state()))

  failing = false
  store:send({ type = "dogs", action = { type = "retryTapped" } }, function(state)
    state.dogs.status = "loading"
    state.dogs.error = nil
  end)
  store:receive("dogs", function(state)
    state.dogs.status = "loaded"
    state.dogs.breeds = mocks.breeds()
  end)
end)

test("a failed picture shows the error on the breed's screen, and retry works", function()
  local failing = true
  local store = test.store(App, {
    initial = loadedApp(),
    deps = { dogsClient = { randomImage = function(breed)
      if failing then error("timed out", 0) end
      return mocks.imageOf(breed)
    end } },
  })

  select(store, "hound", houndDetail())
  store:receive("detail", function(state)
    state.detail.loading = false
    state.detail.error = "timed out"
  end)
  assert(App.view(store:state()):find("⚠ no picture: timed out", 1, true), App.view(store:state()))

  failing = false
  store:send({ type = "detail", action = { type = "retryTapped" } }, function(state)
    state.detail.error = nil
    state.detail.loading = true
  end)
  store:receive("detail", function(state)
    state.detail.loading = false
    state.detail.image = mocks.imageOf("hound")
  end)
end)

test("the screen is the list, then the breed over it, then the list again", function()
  local state = loadedApp()
  state.dogs.query = "hound"
  assert(App.view(state) == "Dogs\n  filter: hound▏\n    Hound ›", App.view(state))
  state.detail = houndDetail()
  assert(App.view(state):find("^‹ Dogs\nHound\n"), App.view(state))
  state.detail = nil
  assert(App.view(state):find("^Dogs\n"), App.view(state))
end)
