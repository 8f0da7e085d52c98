---@meta
-- Definitions of `lunar.fx` and of effects for editors (lua-language-server). See lunar.d.lua.

---A description of work: what `reduce` returns, for Swift to run with the store's clock.
---@class lunar.Effect
local Effect = {}

---Makes the effect cancellable by `id` (a string, number or boolean). With
---`cancelInFlight = true`, starting it first cancels whatever is already running under `id`.
---
---```lua
---return fx.run(function(send) … end):cancellable("search", { cancelInFlight = true })
---```
---@param id string|number|boolean
---@param options? { cancelInFlight: boolean }
---@return lunar.Effect
function Effect:cancellable(id, options) end

---Effect descriptions, read-only: `local fx = lunar.fx`.
---@class lunar.fx
---@field none lunar.Effect No effect. Returning nothing means the same.
local fx = {}

---Feeds `action` back into the store right after this one.
---@param action lunar.Action
---@return lunar.Effect
function fx.send(action) end

---Runs `fn(send)` later, as a coroutine driven by Swift. `send(action)` feeds the store; an
---asynchronous dependency (`deps.clock.sleep`) suspends the coroutine until Swift has the result.
---An error inside `fn` ends that effect only; `catch(err, send)` handles it.
---
---Capture the values you need in locals before returning: never `state` itself.
---@param fn fun(send: fun(action: lunar.Action))
---@param options? { catch: fun(err: any, send: fun(action: lunar.Action)) }
---@return lunar.Effect
function fx.run(fn, options) end

---Runs effects at the same time. `nil` and `fx.none` arguments are dropped.
---@param ... lunar.Effect?
---@return lunar.Effect
function fx.merge(...) end

---Runs effects one after the other: each starts when the previous one has ended.
---@param ... lunar.Effect?
---@return lunar.Effect
function fx.concat(...) end

---Cancels the effects running under `id` in this feature instance.
---@param id string|number|boolean
---@return lunar.Effect
function fx.cancel(id) end

---Sends `action` once `seconds` have passed without another debounce under the same `id`.
---@param id string|number|boolean
---@param seconds number A finite number of seconds from 0 to 1e9.
---@param action lunar.Action
---@return lunar.Effect
function fx.debounce(id, seconds, action) end

---At most one action per `seconds` under `id`: the first goes through at once; the one held
---during the window is the first by default, the latest with `latest = true`.
---@param id string|number|boolean
---@param seconds number A finite number of seconds from 0 to 1e9.
---@param action lunar.Action
---@param latest? boolean
---@return lunar.Effect
function fx.throttle(id, seconds, action, latest) end

---Closes this feature, when a parent presents it (`lunar.ifLet`) or stacks it (`lunar.stack`):
---the parent receives its dismiss action.
---@return lunar.Effect
function fx.dismiss() end
