---@meta
-- Definitions of `deps` for editors (lua-language-server): the dependencies every host has. A
-- host adds its own clients (`deps.numberFact.fetch`, …), which these files cannot know.

---The store's clock.
---@class lunar.Clock
local Clock = {}

---Waits `seconds` on the store's clock (in tests, the test clock: only `store:advance` moves it).
---Asynchronous: call it only inside `fx.run`.
---@param seconds number A finite number of seconds from 0 to 1e9.
function Clock.sleep(seconds) end

---The third argument of `reduce`: the host's clients, by dotted name. Synchronous ones can be
---called anywhere; asynchronous ones only inside `fx.run`.
---@class lunar.Deps
---@field clock lunar.Clock The store's clock.
---@field [string] any The host's other clients.
local Deps = {}

---A new UUID string (in `lunar.test`: `00000000-0000-0000-0000-000000000000`, then counting up).
---@return string
function Deps.uuid() end

---Seconds since 1970, a float (in `lunar.test`: always `0.0`).
---@return number
function Deps.now() end
