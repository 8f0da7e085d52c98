-- SyncUpForm: a sync-up's title, length, theme and attendees, edited in a sheet. Its fields are
-- set from outside through bindings (a text field, a slider, a picker), and it keeps the focus on
-- the attendee being typed. It knows nothing of whoever presents it: they read `state.syncUp`.
local lunar = require "lunar"
local models = require "models"

-- Removes the attendees at `offsets` (positions in the list), keeps at least one, and moves the
-- focus to the attendee now at the first removed position.
local function deleteAttendees(state, offsets, deps)
  local attendees = state.syncUp.attendees
  local sorted = {}
  for i, offset in ipairs(offsets) do sorted[i] = offset end
  table.sort(sorted, function(a, b) return a > b end)
  for _, offset in ipairs(sorted) do table.remove(attendees, offset) end
  if #attendees == 0 then
    attendees[1] = models.attendee(deps.uuid())
  end
  local first = sorted[#sorted]
  if first == nil then return end
  state.focus = { attendee = attendees[math.min(first, #attendees)].id }
end

local function view(state)
  local syncUp = state.syncUp
  local function focused(field) return field and "▏" or "" end
  local lines = {
    "Sync-up info",
    "  title: " .. syncUp.title .. focused(state.focus == "title"),
    "  length: " .. models.formatDuration(syncUp.duration),
    "  theme: " .. syncUp.theme,
    "Attendees",
  }
  for _, attendee in ipairs(syncUp.attendees) do
    local isFocused = type(state.focus) == "table" and state.focus.attendee == attendee.id
    lines[#lines + 1] = "  • " .. (attendee.name == "" and "(name)" or attendee.name) .. focused(isFocused)
  end
  lines[#lines + 1] = "  [ New attendee ]"
  return table.concat(lines, "\n")
end

return lunar.feature {
  name = "SyncUpForm",
  -- focus: "title", or { attendee = id } for the attendee being typed.
  initial = { focus = "title", syncUp = models.syncUp { id = "" } },
  actions = {
    addAttendeeButtonTapped = {},
    deleteAttendees = { offsets = "table" },
  },
  body = {
    -- What the sheet's controls set: the whole sync-up, or one of its fields.
    lunar.binding {
      syncUp = "table",
      ["syncUp.title"] = "string",
      ["syncUp.duration"] = "integer",
      ["syncUp.theme"] = "string",
      focus = "any",
    },
    lunar.reduce(function(state, action, deps)
      local t = action.type
      if t == "addAttendeeButtonTapped" then
        local attendee = models.attendee(deps.uuid())
        table.insert(state.syncUp.attendees, attendee)
        state.focus = { attendee = attendee.id }

      elseif t == "deleteAttendees" then
        deleteAttendees(state, action.offsets, deps)
      end
    end),
  },
  view = view,
}
