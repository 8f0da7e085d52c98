local lunar = require "lunar"
local test = require "lunar.test"
local Search = require "feature"

-- A wordsClient.search mock that answers from a fixed table and remembers every query it was asked.
local function wordsMock(answers)
  local queries = {}
  local function search(query)
    queries[#queries + 1] = query
    return answers[query] or {}
  end
  return search, queries
end

-- Lua mocks answer at once. To keep a search in flight, a mock has to wait on the store's test
-- clock, which only the feature's `deps` reach: this copy of the feature hands its `deps.clock`
-- to the mock, which then sleeps `seconds` before answering.
local function withSlowSearch(seconds, answers)
  local clock
  local feature = lunar.feature {
    name = Search.name,
    clients = Search.clients,
    initial = Search.initial,
    view = Search.view,
    reduce = function(state, action, deps)
      clock = deps.clock
      return Search.reduce(state, action, deps)
    end,
  }
  local function search(query)
    clock.sleep(seconds)
    return answers[query] or {}
  end
  return feature, search
end

test("typing a burst of letters searches once, for the last query", function()
  local search, queries = wordsMock { app = { "apple", "apply", "pineapple" } }
  local store = test.store(Search, { deps = { wordsClient = { search = search } } })

  store:send({ type = "queryChanged", query = "a" }, function(state) state.query = "a" end)
  store:advance(0.1)
  store:send({ type = "queryChanged", query = "ap" }, function(state) state.query = "ap" end)
  store:advance(0.1)
  store:send({ type = "queryChanged", query = "app" }, function(state) state.query = "app" end)
  store:advance(0.29)                       -- still typing, as far as the debounce knows
  store:advance(0.01)
  store:receive("queryDebounced", function(state) state.loading = true end)
  store:receive("searchResponse", function(state)
    state.loading = false
    state.results = { "apple", "apply", "pineapple" }
  end)

  assert(#queries == 1 and queries[1] == "app", "expected one search for 'app', got " .. #queries)
end)

test("a newer query cancels the search in flight: its results never arrive", function()
  local feature, search = withSlowSearch(1, {
    ap = { "apple", "grape" },
    apr = { "apricot", "april", "apron" },
  })
  local store = test.store(feature, { deps = { wordsClient = { search = search } } })

  store:send({ type = "queryChanged", query = "ap" }, function(state) state.query = "ap" end)
  store:advance(0.3)
  store:receive("queryDebounced", function(state) state.loading = true end)
  store:advance(0.5)                        -- "ap" is half-way through its search
  store:send({ type = "queryChanged", query = "apr" }, function(state) state.query = "apr" end)
  store:advance(0.3)                        -- "apr" starts; "ap" is cancelled in flight
  store:receive("queryDebounced")
  store:advance(1)
  store:receive("searchResponse", function(state)
    state.loading = false
    state.results = { "apricot", "april", "apron" }
  end)
  -- The exhaustive store fails the test if "ap"'s searchResponse ever arrives.
end)

test("clearing the query cancels the search and empties the results", function()
  local feature, search = withSlowSearch(1, { cat = { "cat", "catch", "cattle" } })
  local store = test.store(feature, { deps = { wordsClient = { search = search } } })

  store:send({ type = "queryChanged", query = "cat" }, function(state) state.query = "cat" end)
  store:advance(0.3)
  store:receive("queryDebounced", function(state) state.loading = true end)
  store:send({ type = "queryChanged", query = "" }, function(state)
    state.query = ""
    state.loading = false
  end)
  store:advance(5)                          -- nothing arrives, however long we wait
end)

test("clearing the query while the debounce waits means no search at all", function()
  local search, queries = wordsMock {}
  local store = test.store(Search, { deps = { wordsClient = { search = search } } })

  store:send({ type = "queryChanged", query = "do" }, function(state) state.query = "do" end)
  store:advance(0.2)
  store:send({ type = "queryChanged", query = "" }, function(state) state.query = "" end)
  store:advance(1)
  assert(#queries == 0, "expected no search, got " .. #queries)
end)

test("results keep the order the search returns them in", function()
  local search = wordsMock { an = { "plant", "banana", "ant", "canal" } }
  local store = test.store(Search, { deps = { wordsClient = { search = search } } })

  store:send({ type = "queryChanged", query = "an" }, function(state) state.query = "an" end)
  store:advance(0.3)
  store:receive("queryDebounced", function(state) state.loading = true end)
  store:receive("searchResponse", function(state)
    state.loading = false
    state.results = { "plant", "banana", "ant", "canal" }
  end)
  local results = store:state().results
  assert(results[1] == "plant" and results[4] == "canal", "results were reordered")
end)

-- The real client, reading words.txt.
test("the words client finds the words containing the query, ignoring case, in file order", function()
  local store = test.store(Search, { clients = { "wordsClient" } })

  store:send({ type = "queryChanged", query = "APR" }, function(state) state.query = "APR" end)
  store:advance(0.3)
  store:receive("queryDebounced", function(state) state.loading = true end)
  store:receive("searchResponse", function(state)
    state.loading = false
    state.results = { "apricot", "april", "apron" }
  end)
end)

test("a failing search shows the error and no results", function()
  local store = test.store(Search, {
    deps = { wordsClient = { search = function() error("the word list is unavailable", 0) end } },
  })

  store:send({ type = "queryChanged", query = "owl" }, function(state) state.query = "owl" end)
  store:advance(0.3)
  store:receive("queryDebounced", function(state) state.loading = true end)
  store:receive("searchFailed", function(state)
    state.loading = false
    state.error = "the word list is unavailable"
  end)
end)

test("a new search clears the previous error", function()
  local failing = true
  local store = test.store(Search, {
    deps = { wordsClient = { search = function(query)
      if failing then error("offline", 0) end
      return { query }
    end } },
  })

  store:send({ type = "queryChanged", query = "owl" }, function(state) state.query = "owl" end)
  store:advance(0.3)
  store:receive("queryDebounced", function(state) state.loading = true end)
  store:receive("searchFailed", function(state)
    state.loading = false
    state.error = "offline"
  end)
  failing = false
  store:send({ type = "queryChanged", query = "owls" }, function(state) state.query = "owls" end)
  store:advance(0.3)
  store:receive("queryDebounced", function(state)
    state.loading = true
    state.error = nil
  end)
  store:receive("searchResponse", function(state)
    state.loading = false
    state.results = { "owls" }
  end)
end)

test("selecting a result marks it; a word not in the results is ignored", function()
  local search = wordsMock { ow = { "owl", "bowl", "tower" } }
  local store = test.store(Search, { deps = { wordsClient = { search = search } } })

  store:send({ type = "queryChanged", query = "ow" }, function(state) state.query = "ow" end)
  store:advance(0.3)
  store:receive("queryDebounced", function(state) state.loading = true end)
  store:receive("searchResponse", function(state)
    state.loading = false
    state.results = { "owl", "bowl", "tower" }
  end)
  store:send({ type = "resultSelected", word = "bowl" }, function(state) state.selected = "bowl" end)
  store:send({ type = "resultSelected", word = "zebra" })
end)

test("the view lists the results in order and marks the selection", function()
  local store = test.store(Search, {
    initial = { query = "ow", results = { "owl", "bowl", "tower" }, loading = false, selected = "bowl" },
  })
  local text = Search.view(store:state())
  assert(text == table.concat({
    "  search: ow▏",
    "     1. owl",
    "  ▸  2. bowl",
    "     3. tower",
    "  selected: bowl",
  }, "\n"), "view was:\n" .. text)
end)
