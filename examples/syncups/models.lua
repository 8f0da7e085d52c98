-- The data of SyncUps: a sync-up (a recurring meeting with its attendees, its length in seconds,
-- a theme and the meetings held so far), built with the defaults the screens rely on.
local lunar = require "lunar"

local models = {}

models.themes = {
  "bubblegum", "buttercup", "indigo", "lavender", "magenta", "navy", "orange", "oxblood",
  "periwinkle", "poppy", "purple", "seafoam", "sky", "tan", "teal", "yellow",
}

-- A sync-up with `fields` set over the defaults: five minutes, no one yet, bubblegum. Its lists
-- are marked as lists, so that the saved file writes `[]` for them when empty.
function models.syncUp(fields)
  return {
    id = fields.id,
    attendees = fields.attendees or lunar.array(),
    duration = fields.duration or 5 * 60,
    meetings = fields.meetings or lunar.array(),
    theme = fields.theme or "bubblegum",
    title = fields.title or "",
  }
end

function models.attendee(id, name)
  return { id = id, name = name or "" }
end

-- Whole seconds each attendee may speak.
function models.durationPerAttendee(syncUp)
  return syncUp.duration // #syncUp.attendees
end

-- Records a meeting with its transcript, newest first, dated by the host's clock.
function models.insertMeeting(syncUp, transcript, deps)
  table.insert(syncUp.meetings, 1, { id = deps.uuid(), date = deps.now(), transcript = transcript })
end

-- "2009-02-13 23:31" (UTC) for seconds since 1970: the sandbox has no `os.date`.
function models.formatDate(seconds)
  seconds = math.floor(seconds)
  local days, rest = seconds // 86400, seconds % 86400
  -- Days since 1970 to a civil date, counting in 400-year eras from 0000-03-01.
  local z = days + 719468
  local era = z // 146097
  local dayOfEra = z - era * 146097
  local yearOfEra = (dayOfEra - dayOfEra // 1460 + dayOfEra // 36524 - dayOfEra // 146096) // 365
  local dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra // 4 - yearOfEra // 100)
  local mp = (5 * dayOfYear + 2) // 153
  local day = dayOfYear - (153 * mp + 2) // 5 + 1
  local month = mp < 10 and mp + 3 or mp - 9
  local year = yearOfEra + era * 400 + (month <= 2 and 1 or 0)
  return string.format("%04d-%02d-%02d %02d:%02d", year, month, day, rest // 3600, rest % 3600 // 60)
end

-- A deep copy of a table read from the state, to hand to another screen and change there; a list
-- stays a list (`[]` in JSON when emptied).
function models.copy(value)
  if type(value) ~= "table" then return value end
  local copy = {}
  for k, v in pairs(value) do copy[k] = models.copy(v) end
  return lunar.isArray(value) and lunar.array(copy) or copy
end

-- The id `deps.uuid()` gives the `n`-th time under `lunar.test` (from 0): TCA's `UUID(n)`.
function models.uuid(n)
  return string.format("00000000-0000-0000-0000-%012x", n)
end

function models.isBlank(text)
  return text:find("^%s*$") ~= nil
end

-- "5 min", "90 s": a length for a screen.
function models.formatDuration(seconds)
  if seconds % 60 == 0 then return string.format("%d min", seconds // 60) end
  return string.format("%d s", seconds)
end

-- The form's state for `syncUp`: the title focused, and a first attendee when it has none, so
-- there is always a name to type.
function models.formState(syncUp, deps)
  local state = { focus = "title", syncUp = syncUp }
  if #syncUp.attendees == 0 then
    syncUp.attendees[1] = models.attendee(deps.uuid())
  end
  return state
end

-- A design meeting with six attendees and one past meeting: what a first run shows, and what the
-- tests start from. Ids are fixed so that tests can name them.
function models.mock()
  local names = { "Blob", "Blob Jr", "Blob Sr", "Blob Esq", "Blob III", "Blob I" }
  local attendees = {}
  for i, name in ipairs(names) do attendees[i] = models.attendee("attendee-" .. i, name) end
  return models.syncUp {
    id = "design",
    attendees = attendees,
    duration = 60,
    meetings = {
      { id = "meeting-1", date = 1234567890 - 7 * 24 * 60 * 60, transcript = "Lorem ipsum dolor sit amet." },
    },
    theme = "orange",
    title = "Design",
  }
end

-- A sync-up of `count` unnamed attendees lasting `duration` seconds, as the recorder's tests use.
function models.meetingOf(count, duration)
  local attendees = {}
  for i = 1, count do attendees[i] = models.attendee("attendee-" .. i) end
  return models.syncUp { id = "sync-up", attendees = attendees, duration = duration }
end

return models
