-- The speech recognizer. There is no microphone here, so `lunar run` simulates one: it is
-- authorized, and hears a paragraph a word at a time, one word every 0.4 s of the store's clock.
-- Tests mock it (record_test.lua).
local lunar = require "lunar"

local SPOKEN = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor " ..
  "incididunt ut labore et dolore magna aliqua."

return lunar.client "speech" {
  -- "notDetermined", "denied", "restricted" or "authorized".
  authorizationStatus = function() return "authorized" end,

  -- Asks the user; answers the new status.
  requestAuthorization = function() return "authorized" end,

  -- A stream of transcripts, each the whole text heard so far: `for text in deps.speech.start() do`.
  -- An error raised while iterating is a recognition failure.
  start = function(deps)
    local words = {}
    for word in SPOKEN:gmatch("%S+") do words[#words + 1] = word end
    local heard = 0
    return function()
      if heard == #words then return nil end
      deps.clock.sleep(0.4)
      heard = heard + 1
      return table.concat(words, " ", 1, heard)
    end
  end,
}
