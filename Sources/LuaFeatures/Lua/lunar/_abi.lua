-- `lunar._abi`: everything the host (Swift) calls in the prelude, in one table that it reads once
-- into a typed struct (`PreludeABI`, Sources/LuaFeatures/Prelude/): a field missing here fails
-- the host's creation naming it. Nothing else of the prelude is looked up by name from Swift.
--
-- Requiring this module loads the whole prelude. Modules that extend shared tables (`host`,
-- `base.hooks`) are required in the order their extensions build on each
-- other: `_frames` wraps the `lunar.fx` functions defined so far, `_compose` replaces
-- `_effects`' `enterInstance`.
local base = require "lunar._base"
local host = require "lunar._host"
require "lunar._effects"
require "lunar._loose"
require "lunar._frames"
require "lunar._actions"
require "lunar._compose"
require "lunar._clients"
require "lunar._plugin"
local tests = require "lunar._test"

--- A feature's `view` of a copy of its resident `state`, so that a view writing into what it is
--- given leaves the running state as it was.
local function renderCopy(view, state)
  return view(base.copyState(state, 0))
end

return {
  -- The module `require "lunar"` returns (read-only), and the loader making one per sandbox.
  lunar = base.lunar,
  newModule = base.newModule,
  -- `lunar.test`'s module, and the functions of it the test runner drives.
  test = tests.test,
  testing = tests.testing,

  bind = host.bind,
  next = host.next,
  valueAt = host.valueAt,
  renderCopy = renderCopy,
  takeHandle = host.takeHandle,
  dropHandle = host.dropHandle,
  effectBody = host.effectBody,
  isFeature = host.isFeature,
  makeDeps = host.makeDeps,
  clientNames = host.clientNames,
  isManifest = host.isManifest,
  validateAction = host.validateAction,
  declaredTypes = host.declaredTypes,
  childKeys = host.childKeys,
  declares = host.declares,
  typesOfTree = host.typesOfTree,
  actionPaths = host.actionPaths,
  -- The tags an effect's coroutine yields to the host with: send an action, call an asynchronous
  -- dependency.
  sendTag = host.SEND,
  callTag = host.CALL,

  -- The tables of the Lua API, as { class name, table } pairs by the class names of the
  -- definitions for editors (types/): what they must declare.
  api = {
    { "lunar", base.lunar },
    { "lunar.fx", base.lunarTable.fx },
    { "lunar.json", base.lunarTable.json },
    { "lunar.test", tests.test },
    { "lunar.Feature", base.methods["lunar.Feature"] },
    { "lunar.Effect", base.methods["lunar.Effect"] },
    { "lunar.TestStore", tests.methods["lunar.TestStore"] },
    { "lunar.TestStream", tests.methods["lunar.TestStream"] },
  },
}
