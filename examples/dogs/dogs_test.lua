-- The breed list on its own: loading, filtering, selection, failure.
local test = require "lunar.test"
local Dogs = require "dogs"
local mocks = require "mocks"

local function loaded()
  return { query = "", breeds = mocks.breeds(), status = "loaded" }
end

local function names(breeds)
  local list = {}
  for i, breed in ipairs(breeds) do list[i] = breed.name end
  return table.concat(list, ",")
end

test("appearing loads the breeds, with a loading state until they arrive", function()
  local client = mocks.client()
  local store = test.store(Dogs, { deps = { dogsClient = client } })

  store:send({ type = "onAppear" }, function(state) state.status = "loading" end)
  store:receive("breedsLoaded", function(state)
    state.status = "loaded"
    state.breeds = mocks.breeds()
  end)
end)

-- The real client, whose deps.http answers from the recordings in fixtures/http/.
test("the dogs client lists dog.ceo's breeds sorted by name, with their sub-breeds", function()
  local store = test.store(Dogs, { clients = { "dogsClient" } })
  local breeds

  store:send({ type = "onAppear" }, function(state) state.status = "loading" end)
  store:receive(function(action)
    breeds = action.breeds
    return action.type == "breedsLoaded"
  end, function(state)
    state.status = "loaded"
    state.breeds = breeds
  end)
  assert(#breeds == 37, "breeds: " .. #breeds)
  for i = 2, #breeds do
    assert(breeds[i - 1].name < breeds[i].name, "not sorted: " .. names(breeds))
  end
  local hounds = Dogs.filtered(breeds, "hound")
  assert(names(hounds) == "hound", names(breeds))
  assert(table.concat(hounds[1].subBreeds, ",") == "afghan,basset,blood,english,ibizan,plott,walker")
end)

test("the view says it is loading until the breeds arrive", function()
  local text = Dogs.view { query = "", breeds = {}, status = "loading" }
  assert(text == "Dogs\n  loading breeds…", "view was:\n" .. text)
end)

test("appearing again keeps the list it has", function()
  local store = test.store(Dogs, { initial = loaded() })
  store:send { type = "onAppear" }
end)

test("the filter keeps the breeds containing the query, in the list's order", function()
  local store = test.store(Dogs, { initial = loaded() })

  store:send({ type = "queryChanged", query = "u" }, function(state) state.query = "u" end)
  assert(names(Dogs.filtered(store:state().breeds, "u")) == "bulldog,hound,husky")
  assert(names(Dogs.filtered(store:state().breeds, "er")) == "terrier")
  assert(names(Dogs.filtered(store:state().breeds, "")) == "bulldog,hound,husky,shiba,terrier")
end)

test("the filter ignores case", function()
  local breeds = mocks.breeds()
  assert(names(Dogs.filtered(breeds, "OU")) == "hound")
  assert(names(Dogs.filtered(breeds, "U")) == "bulldog,hound,husky")
  assert(names(Dogs.filtered(breeds, "sHiBa")) == "shiba")
  assert(names(Dogs.filtered(breeds, "Bull")) == "bulldog")
end)

test("the view lists the filtered breeds, capitalized, in order", function()
  local state = loaded()
  state.query = "U"
  local text = Dogs.view(state)
  assert(text == table.concat({
    "Dogs",
    "  filter: U▏",
    "    Bulldog ›",
    "    Hound ›",
    "    Husky ›",
  }, "\n"), "view was:\n" .. text)
end)

test("a filter matching nothing says so", function()
  local state = loaded()
  state.query = "cat"
  assert(Dogs.view(state):find("no breed matches “cat”", 1, true), Dogs.view(state))
end)

test("tapping a breed tells the parent which one, with its sub-breeds", function()
  local store = test.store(Dogs, { initial = loaded() })

  store:send { type = "breedTapped", breed = "hound" }
  store:receive {
    type = "delegate",
    action = { type = "breedSelected", breed = { name = "hound", subBreeds = { "afghan", "basset" } } },
  }
end)

test("tapping a breed that is not in the list does nothing", function()
  local store = test.store(Dogs, { initial = loaded() })
  store:send { type = "breedTapped", breed = "unicorn" }
end)

test("a failed load shows why, and retry loads again", function()
  local failing = true
  local store = test.store(Dogs, {
    deps = { dogsClient = { breeds = function()
      if failing then error("the network is unreachable", 0) end
      return mocks.breeds()
    end } },
  })

  store:send({ type = "onAppear" }, function(state) state.status = "loading" end)
  store:receive("breedsFailed", function(state)
    state.status = "failed"
    state.error = "the network is unreachable"
  end)
  local text = Dogs.view(store:state())
  assert(text:find("could not load the breeds: the network is unreachable", 1, true), text)
  assert(text:find("[ retry ]", 1, true), text)

  failing = false
  store:send({ type = "retryTapped" }, function(state)
    state.status = "loading"
    state.error = nil
  end)
  store:receive("breedsLoaded", function(state)
    state.status = "loaded"
    state.breeds = mocks.breeds()
  end)
end)

test("retry does nothing unless the load failed", function()
  local store = test.store(Dogs, { initial = loaded() })
  store:send { type = "retryTapped" }
end)
