-- App: the Dogs tutorial's two screens, composed. The list (dogs.lua) and the breed (breed.lua)
-- do not know each other; this feature is the only one that knows both.
--
-- Navigation is `lunar.ifLet`, not a stack: the app shows one breed over the list, never a path
-- of screens, and `state.detail` (a breed, or nil) says exactly that. A stack would add entry ids,
-- screen names and a path for a depth the app does not have. Both dismiss the same way and both
-- cancel a screen's effects when it goes.
--
-- At `lunar run examples/dogs`, try:
--   { type = "dogs", action = { type = "onAppear" } }
--   { type = "dogs", action = { type = "queryChanged", query = "ter" } }
--   { type = "dogs", action = { type = "breedTapped", breed = "terrier" } }
--   { type = "detail", action = { type = "closeTapped" } }
local lunar = require "lunar"
local Dogs = require "dogs"
local Breed = require "breed"
local fx = lunar.fx

local function present(state, breed)
  -- NB: `id` is the presented screen's identity: presenting another breed over this one
  -- cancels the first one's image request.
  state.detail = Breed:initialWith { id = breed.name, name = breed.name, subBreeds = breed.subBreeds }
  -- A screen appears when it is presented: say so to it, as a view's onAppear would.
  return fx.send { type = "detail", action = { type = "onAppear" } }
end

return lunar.feature {
  name = "App",
  initial = { dogs = Dogs:initialWith() },
  -- No actions of its own: those of state.dogs and state.detail are declared by Dogs and Breed.
  actions = {},

  body = {
    lunar.scope("dogs", Dogs),
    lunar.ifLet("detail", Breed),
    lunar.reduce(function(state, action)
      if action.type == "dogs" then
        local child = action.action
        if child.type == "delegate" and child.action.type == "breedSelected" then
          return present(state, child.action.breed)
        end
      end
      -- { type = "detail", action = { type = "dismiss" } } (or the breed's fx.dismiss()) removes
      -- state.detail after this reducer, and cancels the image request if it is still running.
    end),
  },

  -- The screen on top: the breed when one is presented, else the list.
  view = function(state)
    if state.detail then return Breed.view(state.detail) end
    return Dogs.view(state.dogs)
  end,
}
