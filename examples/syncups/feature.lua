-- SyncUps: TCA's flagship example in Lua. A list of recurring meetings persisted to a file; a
-- detail screen with an edit sheet and a delete alert; a recorder with a timer and speech
-- recognition; past meetings; all on one navigation stack. Each screen is a module of its own that
-- knows nothing of the app; the app scopes the list and stacks the others.
--
--   lunar run examples/syncups
--   > syncUpsList.addSyncUpButtonTapped
--   > syncUpsList.destination.add.binding path=syncUp.title value="Morning sync"
--   > syncUpsList.confirmAddSyncUpButtonTapped
--   > path.push screen=detail state={ syncUp = { id = "…" } }     (the id of a sync-up in the list)
--   > path[0].startMeetingButtonTapped
--   > path[1].onTask
local lunar = require "lunar"
local models = require "models"
local List = require "list"
local Detail = require "detail"
local Meeting = require "meeting"
local Record = require "record"

local screens = { detail = Detail, meeting = Meeting, record = Record }

local function entryWithId(path, id)
  for _, entry in ipairs(path) do
    if entry.id == id then return entry end
  end
end

local function reduce(state, action)
  -- A detail screen asked to start a meeting: the recorder gets a reference to the same sync-up.
  if action.type == "path" and action.action.type == "delegate"
    and action.action.action.type == "startMeeting" then
    local detail = entryWithId(state.path, action.id)
    lunar.push(state.path, "record", Record:initialWith { syncUp = models.copy(detail.state.syncUp) })
  end
end

local function view(state)
  local top = state.path[#state.path]
  if top == nil then return List.view(state.syncUpsList) end
  return screens[top.screen].view(top.state)
end

return lunar.feature {
  name = "SyncUps",
  initial = { syncUpsList = List:initialWith {}, path = {} },
  actions = {},
  body = {
    lunar.scope("syncUpsList", List),
    lunar.stack("path", screens),
    lunar.reduce(reduce),
  },
  view = view,
}
