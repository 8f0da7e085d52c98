---@meta lunar
-- Definitions of the `lunar` module for editors (lua-language-server): what a feature script sees
-- after `local lunar = require "lunar"`. They describe Lunar's API and are never run; the full
-- guide is docs/lua-api.md. `lunar new` copies these files into the new feature's `.lunar/types/`.

---An action: a table with a string `type` and any payload fields, such as
---`{ type = "queryChanged", query = "ap" }`. A child's action reaches its parent wrapped:
---`{ type = "todos", id = 3, action = { type = "toggle" } }`.
---The type of a declared action's field; a `?` at the end makes the field optional.
---@alias lunar.FieldType "string"|"number"|"integer"|"boolean"|"table"|"any"|"string?"|"number?"|"integer?"|"boolean?"|"table?"|"any?"

---@class lunar.Action
---@field type string What happened; reducers dispatch on it with `if … elseif`.
---@field [string] any Payload fields.

---What `lunar.feature` takes.
---@class lunar.FeatureDefinition
---@field name string How errors, `lunar list` and the test output name the feature.
---@field initial table|fun(deps: lunar.Deps): table The state a store starts from: strings, numbers, booleans and tables of those; or a function of the store's `deps` returning it.
---@field reduce? fun(state: table, action: lunar.Action, deps: lunar.Deps): lunar.Effect? Evolves `state` in place (it is a journaled proxy) and returns an effect, or nothing. Leave it out when the feature has a `body`.
---@field body? lunar.BodyEntry[] The children and reducers of a composed feature, run in order on every action: children first, `lunar.reduce` last.
---@field view? fun(state: table): string The feature's screen, as text, from a plain copy of the state.
---@field migrate? fun(state: table) Adapts the state kept across a hot reload to the new script's shape, in place.
---@field shared? table<string, lunar.Shared|lunar.SharedElement> State fields shared between features and persisted: `{ settings = lunar.shared("settings", {…}) }`, or one element of a shared array: `{ syncUp = lunar.sharedElement("syncUps") }`.
---@field clients? lunar.Client[] The Lua clients the feature calls through `deps`: `{ require "fact_client" }`.
---@field actions? table<string, table<string, lunar.FieldType>> The feature's actions and their fields: `{ increment = {}, add = { title = "string", note = "string?" } }`. Declared, any other action (or a missing, extra or mistyped field) is refused with the nearest declared name; a body's children are declared by it.

---A feature, as `lunar.feature` returns it: run it with `lunar run`, compose it into a parent's
---`body`, test it with `test.store`.
---@class lunar.Feature: lunar.FeatureDefinition
local Feature = {}

---A fresh copy of the feature's `initial` state with `fields` set: what to present or push.
---
---```lua
---state.editing = Edit:initialWith { id = 3, title = "milk" }
---```
---A feature whose `initial` is a function of `deps` needs them: `Form:initialWith({}, deps)`.
---@param fields? table Fields to set on the copy.
---@param deps? lunar.Deps The reducer's `deps`, for an `initial` that is a function of them.
---@return table state
function Feature:initialWith(fields, deps) end

---A client made by `lunar.client`: list it in a feature's `clients`.
---@class lunar.Client
---@field name string

---A value declared with `lunar.shared`, placed in a feature's state by its `shared` field.
---@class lunar.Shared

---A field declared with `lunar.sharedElement`: one element of a shared array, found by its `id`.
---@class lunar.SharedElement

---Options of `lunar.shared`.
---@class lunar.SharedOptions
---@field default any The value when nothing is stored: any data.
---@field storage? "memory"|"file" `"memory"` (the default): kept while the host runs; `"file"`: also saved as JSON after every change.

---What `lunar.plugin` takes: a plugin's manifest.
---@class lunar.PluginManifest
---@field name string How hosts, their events and `:use` name the plugin: a letter, then letters, digits, `-` and `_`.
---@field version string The plugin's version, like `"1.2.0"`.
---@field api integer The version of the Lua API the plugin was written for: `1`.
---@field feature? string The module of the plugin's feature, in its folder: `"feature"` (the default) is `feature.lua`.
---@field capabilities? lunar.PluginCapabilities What the plugin asks the host for; it reaches nothing else.

---The capabilities a plugin asks for, by name: `http = { hosts = { "dog.ceo" } }` (or `true` for
---any host), `files = true`, `storage = true`, and the names of clients the host offers.
---@class lunar.PluginCapabilities
---@field http? true|{ hosts: string[] } HTTP requests; with `hosts`, only to those (a name with its subdomains, an IP address alone; `"host:port"` for a port other than 80 and 443).
---@field files? true The plugin's own files, read-only.
---@field storage? true A key-value store of the plugin's own.

---An entry of a feature's `body`: made by `lunar.scope`, `lunar.forEach`, `lunar.ifLet`,
---`lunar.stack` or `lunar.reduce`.
---@class lunar.BodyEntry

---The `lunar` module: features, their composition, shared state and effects.
---@class lunar
---@field fx lunar.fx Effect descriptions: what a reducer returns for Swift to run.
---@field json lunar.json The host's JSON codec: `lunar.json.encode(value)`, `lunar.json.decode(text)`.
local lunar = {}

---Declares a feature. The table is checked when the script loads, so a mistake is a load error
---with the script's `file:line`.
---
---```lua
---return lunar.feature {
---  name = "Counter",
---  initial = { count = 0 },
---  reduce = function(state, action, deps)
---    if action.type == "increment" then state.count = state.count + 1 end
---  end,
---}
---```
---@param definition lunar.FeatureDefinition
---@return lunar.Feature
function lunar.feature(definition) end

---Declares a value the host keeps and every feature that declares the same `key` sees: settings, a
---signed-in user, a list that outlives the process. Place it in a feature's state with
---`shared = { field = lunar.shared(…) }`.
---
---```lua
---shared = { settings = lunar.shared("settings", { default = { theme = "light" }, storage = "file" }) },
---```
---@param key string Letters, digits, `_`, `-` and `.`.
---@param options lunar.SharedOptions
---@return lunar.Shared
function lunar.shared(key, options) end

---Marks `list` (a new empty table when none is given) as a list, so that it is written to JSON as
---an array even when empty: `[]`, never `{}`. The mark stays with the table in state, through
---copies, hot reload and saved files. Lists that reached Lua as arrays (from `initial`, a saved
---file, an action, `lunar.json.decode`) carry it already; a fresh `{}` does not.
---
---```lua
---initial = { laps = lunar.array() },
----- …
---state.laps = lunar.array()          -- reset: saved and shown as "laps": []
---```
---@generic T: table
---@param list? T A table whose keys are 1 to n.
---@return T list The same table, marked.
function lunar.array(list) end

---Whether `t` is marked as a list (by `lunar.array`, or because it reached Lua as an array), a
---table of `state` included. A copy you make of a list is a fresh table: mark it to keep it a list.
---
---```lua
---local function copy(t)
---  if type(t) ~= "table" then return t end
---  local result = {}
---  for k, v in pairs(t) do result[k] = copy(v) end
---  return lunar.isArray(t) and lunar.array(result) or result
---end
---```
---@param t any
---@return boolean
function lunar.isArray(t) end

---Declares a field that is one element of the shared array `key`: the element whose `id` is the
---field's own `id`. Writes to the field reach the array (and its file) and every other holder in
---the same action; writes to the array reach the field. Once the element is removed, the field
---keeps its last value and its writes stay its own.
---
---```lua
---shared = { syncUp = lunar.sharedElement("syncUps") },
----- the parent presents it with a copy of the element: Detail:initialWith { syncUp = state.syncUps[i] }
---```
---@param key string|lunar.Shared The key of a shared array, or its `lunar.shared` declaration.
---@return lunar.SharedElement
function lunar.sharedElement(key) end

---A body entry: runs `child` on `state[key]`, always there. Its actions arrive as
---`{ type = key, action = {…} }`.
---@param key string The state field of the child.
---@param child lunar.Feature
---@return lunar.BodyEntry
function lunar.scope(key, child) end

---A body entry: runs `child` on each element of the array `state[key]`. Elements are tables with
---an `id` (a string or number, unique in the array) and are addressed by it:
---`{ type = key, id = 3, action = {…} }`. Removing an element cancels its effects.
---@param key string The state field holding the array.
---@param child lunar.Feature
---@return lunar.BodyEntry
function lunar.forEach(key, child) end

---A body entry: runs `child` on `state[key]` while it is not `nil`. Present it by setting the
---state; close it by setting `nil`, or from the child with `fx.dismiss()`.
---@param key string The state field of the presented child.
---@param child lunar.Feature|function The child, or `lunar.alert` / `lunar.confirmationDialog`.
---@return lunar.BodyEntry
function lunar.ifLet(key, child) end

---A body entry: a navigation stack. `state[key]` is an array of entries
---`{ id = 0, screen = "detail", state = {…} }`, each run by the destination its `screen` names.
---
---```lua
---lunar.stack("path", { detail = Detail, settings = Settings })
---```
---@param key string The state field holding the stack.
---@param destinations table<string, lunar.Feature> The destinations, by screen name.
---@return lunar.BodyEntry
function lunar.stack(key, destinations) end

---Pushes an entry on a stack of the state and returns its id (integers from 0, never reused);
---without `state`, the destination's `initial` state is used.
---
---```lua
---lunar.push(state.path, "detail", Detail:initialWith { title = action.title })
---```
---@param stack table A stack of the state, such as `state.path`.
---@param screen string The destination's name.
---@param state? table The entry's state.
---@return integer id
function lunar.push(stack, screen, state) end

---A body entry: one optional field holding one of several children (TCA's enum destination).
---`state[key]` is `nil` or `{ screen = "edit", state = {…} }`; the case `screen` names runs
---`state`. Actions name their case: `{ type = key, action = { type = "edit", action = {…} } }`.
---Changing or clearing it cancels the previous case's effects.
---
---```lua
---lunar.destination("destination", { edit = SyncUpForm, alert = lunar.alert })
---```
---@param key string The state field of the destination.
---@param cases table<string, lunar.Feature|function> The cases, by name: features, `lunar.alert` or `lunar.confirmationDialog`.
---@return lunar.BodyEntry
function lunar.destination(key, cases) end

---A button of an alert or a confirmation dialog.
---@class lunar.AlertButton
---@field label string The button's text.
---@field role? "cancel"|"destructive" How the button is shown.
---@field action? lunar.Action What tapping it sends (wrapped for the parent); none: it only dismisses.

---An alert or a confirmation dialog, as state.
---@class lunar.Alert
---@field kind "alert"|"confirmationDialog"
---@field title string
---@field message? string
---@field titleVisibility? "automatic"|"visible"|"hidden" A dialog's.
---@field buttons lunar.AlertButton[]

---@class lunar.AlertDefinition
---@field title string
---@field message? string
---@field buttons? lunar.AlertButton[]

---@class lunar.ConfirmationDialogDefinition: lunar.AlertDefinition
---@field titleVisibility? "automatic"|"visible"|"hidden"

---An alert as plain state (TCA's `AlertState`). Present it with `lunar.ifLet("alert", lunar.alert)`
---or as a case of `lunar.destination`; after one of its buttons' actions reached the parent, it is
---cleared (unless the parent replaced it).
---@param definition lunar.AlertDefinition
---@return lunar.Alert
function lunar.alert(definition) end

---A confirmation dialog as plain state (TCA's `ConfirmationDialogState`), presented as an alert is.
---@param definition lunar.ConfirmationDialogDefinition
---@return lunar.Alert
function lunar.confirmationDialog(definition) end

---An alert or a dialog as lines of text, for a `view`: the title in brackets, the message, then
---each button as `(label, role) -> action type`.
---@param alert lunar.Alert
---@return string
function lunar.alertText(alert) end

---A body entry (first in the body): the state fields a `binding` action may set, by dotted path,
---with their types ("string", "number", "integer", "boolean", "table", "any"; `?` allows nil).
---`{ type = "binding", path = "title", value = "x" }` sets `state.title`, then the reducers after
---it see the action.
---@param fields table<string, string>
---@return lunar.BodyEntry
function lunar.binding(fields) end

---A body entry: the feature's own reducer, which sees every action, the children's (wrapped)
---included, after the children listed before it.
---@param fn fun(state: table, action: lunar.Action, deps: lunar.Deps): lunar.Effect?
---@return lunar.BodyEntry
function lunar.reduce(fn) end

---A client written in Lua over the host's capabilities. Each method receives `deps` first; a
---feature lists the clients it uses (`clients = { require "fact_client" }`) and calls them through
---`deps` (`deps.factClient.fetch(n)`). A method that reaches an asynchronous dependency is itself
---asynchronous: call it inside `fx.run`. In `lunar.test`, mock it by name like any dependency.
---
---```lua
---return lunar.client "factClient" {
---  fetch = function(deps, n) return deps.http.get("http://numbersapi.com/" .. n).body end,
---}
---```
---@param name string A name like `factClient`: the key under `deps`.
---@return fun(methods: table<string, fun(deps: lunar.Deps, ...): any>): lunar.Client
function lunar.client(name) end

---Declares a plugin: what `plugin.lua`, next to the plugin's feature, returns. The host that loads
---the plugin checks every field and points a mistake at its line.
---
---```lua
---return lunar.plugin {
---  name = "dogs", version = "1.2.0", api = 1,
---  feature = "feature",
---  capabilities = { http = { hosts = { "dog.ceo" } }, files = true, storage = true },
---}
---```
---@param manifest lunar.PluginManifest
---@return lunar.PluginManifest
function lunar.plugin(manifest) end

---The host's JSON codec, the one that writes events, recordings and persisted files.
---@class lunar.json
local json = {}

---A value as JSON text: keys in byte order, integers as integers, `nil` as `null`. Strings that
---are not UTF-8, NaN, infinities and too deep nesting are errors naming the value's path. An empty
---table is `[]` when marked as a list (`lunar.array()`), `{}` otherwise.
---
---```lua
---local body = lunar.json.encode { query = state.query, page = 1 }
---```
---@param value any Data: strings, numbers, booleans, tables of those.
---@param options? { pretty?: boolean } `pretty = true` indents by two spaces.
---@return string text
function json.encode(value, options) end

---The value JSON text holds. `null` leaves a hole in an array and removes a key of an object.
---Arrays come back marked as lists (`lunar.isArray`), so `[]` encodes back as `[]`.
---Text that is not JSON, a key twice and too deep nesting are errors with the byte offset.
---
---```lua
---local breeds = lunar.json.decode(response.body).message
---```
---@param text string
---@return any value
function json.decode(text) end

return lunar
