-- Meeting: a past meeting of a sync-up, read only: who attended, and what was said.
local lunar = require "lunar"
local models = require "models"

return lunar.feature {
  name = "Meeting",
  initial = { meeting = { id = "", date = 0, transcript = "" }, syncUp = models.syncUp { id = "" } },
  actions = {},
  reduce = function() end,
  view = function(state)
    local lines = { "‹ " .. state.syncUp.title .. "   " .. models.formatDate(state.meeting.date), "Attendees" }
    for _, attendee in ipairs(state.syncUp.attendees) do lines[#lines + 1] = "  • " .. attendee.name end
    lines[#lines + 1] = "Transcript"
    lines[#lines + 1] = "  " .. state.meeting.transcript
    return table.concat(lines, "\n")
  end,
}
