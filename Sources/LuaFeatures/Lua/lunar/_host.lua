-- `lunar._host`, host-only machinery for features, part one: the Lua half of the reducer
-- transaction. Part two, lunar/_effects.lua, adds reducer calls, effects and dependencies to the
-- same `host` table. Scripts never see this table.
local base = require "lunar._base"
-- The transaction's C half (CLuaTransaction), registered by the host.
local core = require "lunar._core"
-- An empty array pushed by LuaBridge, registered by the host for its marker.
local emptyArray = require "lunar._emptyArray"
local describe = base.describe

local error, getmetatable = error, getmetatable

local host = { isFeature = base.isFeature }

---------------------------------------------------------------------------------------------------
-- The reducer transaction (docs/transaction.md).
--
-- The reducer sees `state` through proxies (C: CLuaTransaction/proxies.c): reads fall through to
-- the resident table, writes are journaled (table, key, old value, path) before they happen, and a
-- table stored is copied. The host begins a transaction per action and closes it explicitly:
-- commit keeps the writes, rollback replays the journal backwards, so the state is exactly as
-- before the action. The journal's layout comes from C (`core.layout`), never re-typed here.

-- NB: LuaBridge marks the empty arrays it pushes with a metatable (so they read back as arrays);
--     such a table is plain state, the only metatable state may hold.
local arrayMarker = getmetatable(emptyArray)

-- Raised by the proxies (from C) when `state` is used outside its reducer call.
local function stale(key)
  error("state used outside its reducer call (reading or writing " .. describe(key) .. "). " ..
    "Effects run later: capture the values you need (`local n = state.count`) before returning " ..
    "fx.run, and never keep `state` itself.", 3)
end

-- Effect handles (number -> what a `run` effect runs), and those the open transaction registered:
-- a rollback forgets them, a commit keeps them for the host.
local handles, pending = {}, {}

--- What the rest of the host's Lua needs of the transaction. For composition (lunar/_compose/):
--- the table behind a proxy and its path, the proxy of a row, the journal and its layout. For
--- reducer calls (lunar/_effects.lua): the C half, the effect handles, and what it calls back.
host.internals = {
  core = core,
  realOf = core.realOf,
  pathOf = core.pathOf,
  -- NB: a proxy outside the call's cache: for the one row proxy composition makes per action.
  childProxy = core.childProxy,
  -- NB: a composed body's loop over its entries, in C (see routing.c).
  body = core.body,
  routingWhere = core.routingWhere,
  journal = core.journal,
  layout = core.layout,
  journalLength = core.journalLength,
  -- NB: what composition derives from state tables and keeps across calls (a list's ids): C
  --     empties it when a call's writes are undone or were never checked.
  derived = core.derived,
  -- NB: for lunar/_loose.lua: whether a call runs, and the count of effects it built and dropped.
  active = core.active,
  loose = core.loose,
  isAction = core.isAction,
  hasID = core.hasID,
  -- NB: the budget around trusted code: composition's Lua runs untimed, authors' code timed.
  user = core.user,
  stale = stale,
  arrayMarker = arrayMarker,
  handles = handles,
  pending = pending,
}

--- The sandbox's `next`: a state proxy iterates its table (nested tables read as proxies); any
--- other table as the primitive `next` does.
host.next = core.next

return host
