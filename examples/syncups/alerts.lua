-- The alerts of SyncUps, as data (lunar.alert): what the screens present, and what their tests
-- expect, as TCA's `AlertState` extensions are shared by the app and its tests.
local lunar = require "lunar"

local alerts = {}

function alerts.deleteSyncUp()
  return lunar.alert {
    title = "Delete?",
    message = "Are you sure you want to delete this meeting?",
    buttons = {
      { label = "Yes", role = "destructive", action = { type = "confirmDeletion" } },
      { label = "Nevermind", role = "cancel" },
    },
  }
end

function alerts.speechRecognitionDenied()
  return lunar.alert {
    title = "Speech recognition denied",
    message = "You previously denied speech recognition and so your meeting will not be recorded. " ..
      "You can enable speech recognition in settings, or you can continue without recording.",
    buttons = {
      { label = "Continue without recording", action = { type = "continueWithoutRecording" } },
      { label = "Open settings", action = { type = "openSettings" } },
      { label = "Cancel", role = "cancel" },
    },
  }
end

function alerts.speechRecognitionRestricted()
  return lunar.alert {
    title = "Speech recognition restricted",
    message = "Your device does not support speech recognition and so your meeting will not be recorded.",
    buttons = {
      { label = "Continue without recording", action = { type = "continueWithoutRecording" } },
      { label = "Cancel", role = "cancel" },
    },
  }
end

function alerts.endMeeting(isDiscardable)
  local buttons = { { label = "Save and end", action = { type = "confirmSave" } } }
  if isDiscardable then
    buttons[#buttons + 1] = { label = "Discard", role = "destructive", action = { type = "confirmDiscard" } }
  end
  buttons[#buttons + 1] = { label = "Resume", role = "cancel" }
  return lunar.alert {
    title = "End meeting?",
    message = "You are ending the meeting early. What would you like to do?",
    buttons = buttons,
  }
end

function alerts.speechRecognizerFailed()
  return lunar.alert {
    title = "Speech recognition failure",
    message = "The speech recognizer has failed for some reason and so your meeting will no longer " ..
      "be recorded. What do you want to do?",
    buttons = {
      { label = "Continue meeting", role = "cancel" },
      { label = "Discard meeting", role = "destructive", action = { type = "confirmDiscard" } },
    },
  }
end

return alerts
