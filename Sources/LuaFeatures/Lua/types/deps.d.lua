---@meta
-- Definitions of `deps` for editors (lua-language-server): the dependencies every host has, and
-- the capabilities a host may offer (`http`, `files`, `storage`). A feature's own clients
-- (`lunar.client`) and those a Swift app registers are not here: these files cannot know them.

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
---@field http lunar.HTTP HTTP requests (a capability: offered by the host, or not).
---@field files lunar.Files The feature's own bundled files, read-only (a capability).
---@field storage lunar.Storage A key-value store of the feature's own, persisted (a capability).
---@field [string] any The host's other clients.
local Deps = {}

---A new UUID string (in `lunar.test`: `00000000-0000-0000-0000-000000000000`, then counting up;
---under `lunar run --seed N`, the same ones in the same order on every run).
---@return string
function Deps.uuid() end

---Seconds since 1970, a float (in `lunar.test`: always `0.0`).
---@return number
function Deps.now() end

---What `deps.http.request` takes.
---@class lunar.HTTPRequest
---@field url string An absolute `http://` or `https://` URL.
---@field method? string `"GET"` (the default), `"POST"`, …
---@field headers? table<string, string>
---@field body? string Encode tables with `lunar.json.encode`.
---@field timeout? number Seconds to wait for an answer (30 by default, at most 600).

---What `deps.http` returns: any status is an answer.
---@class lunar.HTTPResponse
---@field status integer
---@field headers table<string, string> Names in lower case.
---@field body string

---HTTP requests. Asynchronous: only inside `fx.run`. Offline (`--deps offline`, the default) the
---answers come from the feature's recorded `fixtures/http/`; `--deps record` records them.
---@class lunar.HTTP
local HTTP = {}

---Makes a request. Raises (naming the URL) only when there is no answer: a bad URL, a refused
---connection, a timeout, a missing recording.
---@param request lunar.HTTPRequest
---@return lunar.HTTPResponse
function HTTP.request(request) end

---`request { url = url, headers = headers }`.
---@param url string
---@param headers? table<string, string>
---@return lunar.HTTPResponse
function HTTP.get(url, headers) end

---The feature's own files, read-only. Paths are relative to its folder, with `/`; `..`, absolute
---paths and symlinks out of the folder are refused. Synchronous.
---@class lunar.Files
local Files = {}

---A file's bytes.
---@param path string
---@return string
function Files.read(path) end

---The names in a folder (the feature's own by default), sorted; folders end with `/`.
---@param folder? string
---@return string[]
function Files.list(folder) end

---Whether a file or folder is there.
---@param path string
---@return boolean
function Files.exists(path) end

---A key-value store of the feature's own, kept as one JSON document. Asynchronous: only inside
---`fx.run`. A value JSON cannot hold is refused when set.
---@class lunar.Storage
local Storage = {}

---The value under `key`, or nil.
---@param key string
---@return any
function Storage.get(key) end

---Stores `value` under `key` (nil removes it).
---@param key string
---@param value any
function Storage.set(key, value) end

---Removes `key`.
---@param key string
function Storage.delete(key) end

---The keys, sorted.
---@return string[]
function Storage.keys() end
