-- Search: a query field over a word list. Typing waits for a pause (a debounce), then searches;
-- a newer search cancels the one in flight, and clearing the query cancels everything. The words
-- come from `wordsClient` (words_client.lua).
local lunar = require "lunar"
local view = require "view"
local fx = lunar.fx

local DEBOUNCE = "search.debounce" -- the wait after each keystroke
local SEARCH = "search.request"    -- the search in flight
local PAUSE = 0.3                  -- seconds of quiet typing before a search starts

-- The search for `query`: a value captured here, never `state`, because the effect runs later.
local function search(query, deps)
  return fx.run(function(send)
    send { type = "searchResponse", query = query, results = deps.wordsClient.search(query) }
  end, {
    catch = function(err, send)
      send { type = "searchFailed", query = query, message = tostring(err) }
    end,
  })
end

local function contains(list, word)
  for _, item in ipairs(list) do
    if item == word then return true end
  end
  return false
end

return lunar.feature {
  name = "Search",
  clients = { require "words_client" },
  initial = { query = "", results = {}, loading = false, error = nil, selected = nil },
  actions = {
    queryChanged = { query = "string?" },
    queryDebounced = {},
    searchResponse = { query = "string", results = "table" },
    searchFailed = { query = "string", message = "string" },
    resultSelected = { word = "string" },
  },

  reduce = function(state, action, deps)
    if action.type == "queryChanged" then
      state.query = action.query or ""
      if state.query == "" then
        state.results = {}
        state.loading = false
        state.error = nil
        state.selected = nil
        return fx.merge(fx.cancel(DEBOUNCE), fx.cancel(SEARCH))
      end
      return fx.debounce(DEBOUNCE, PAUSE, { type = "queryDebounced" })

    elseif action.type == "queryDebounced" then
      if state.query == "" then return end
      state.loading = true
      state.error = nil
      return search(state.query, deps):cancellable(SEARCH, { cancelInFlight = true })

    elseif action.type == "searchResponse" then
      -- Results for a query the user has since changed can only arrive while the new query
      -- waits out its debounce; the new search will answer, so keep waiting for it.
      if action.query ~= state.query then return end
      state.loading = false
      state.results = action.results
      state.selected = nil

    elseif action.type == "searchFailed" then
      if action.query ~= state.query then return end
      state.loading = false
      state.results = {}
      state.selected = nil
      state.error = action.message

    elseif action.type == "resultSelected" then
      if contains(state.results, action.word) then
        state.selected = action.word
      end
    end
  end,

  view = view,
}
