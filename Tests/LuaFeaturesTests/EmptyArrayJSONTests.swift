import Composable
import ComposableTesting
import ConcurrencyExtras
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// The rule for empty lists in JSON (docs/lua-api.md, "Empty arrays in JSON"): a list stays `[]`
/// when it is marked (`lunar.array`, or it reached Lua as an array) or where a shared value's
/// declared default has a list; a fresh `{}` is an object.
@MainActor
@Suite struct EmptyArrayJSONTests {
  static let laps = #"""
    local lunar = require "lunar"
    local Lap = lunar.feature { name = "Lap", initial = { marks = lunar.array() }, reduce = function() end }
    return lunar.feature {
      name = "Stopwatch",
      initial = { laps = lunar.array(), splits = { 1.5, 2.5 }, tags = {} },
      reduce = function(state, action)
        local t = action.type
        if t == "clearSplits" then
          while #state.splits > 0 do table.remove(state.splits) end
        elseif t == "reset" then state.laps = lunar.array()
        elseif t == "wipe" then state.laps = {}
        elseif t == "copy" then state.copied = state.laps
        elseif t == "ask" then
          state.answers = { lunar.isArray(state.laps), lunar.isArray(state.splits), lunar.isArray(state.tags),
            lunar.isArray(lunar.array()), lunar.isArray({}), lunar.isArray("x") }
        elseif t == "children" then
          local first = Lap:initialWith {}
          table.insert(first.marks, 1)
          state.first, state.second = first, Lap:initialWith {}
        elseif t == "encode" then
          state.text = lunar.json.encode { marked = lunar.array(), fresh = {}, listed = lunar.array { 1 } }
        elseif t == "roundTrip" then
          state.text = lunar.json.encode(lunar.json.decode('{"laps":[],"meta":{}}'))
        elseif t == "bad" then
          local what = action.what == "keys" and { x = 1 } or action.what == "state" and state.laps or 3
          state.text = lunar.array(what)
        end
      end,
    }
    """#

  let harness: FeatureHarness
  let store: Store<LuaState, LuaValue>
  let reducer: LuaReducer

  init() throws {
    harness = try FeatureHarness()
    let feature = try harness.load(Self.laps, chunkName: "stopwatch.lua")
    reducer = feature.reducer()
    store = makeStore(reducer, state: feature.initialState)
  }

  func json(_ value: LuaValue) throws -> String { try LuaJSONEncoder().encodeText(value) }

  func send(_ type: String, _ fields: [LuaString: LuaValue] = [:]) throws {
    var action = fields
    action["type"] = .text(type)
    store.send(.table(action))
    if let error = harness.takeErrors().first { throw error }
  }

  @Test func aListMarkedInInitialIsAnArrayAndAFreshEmptyTableAnObject() throws {
    #expect(try json(store.state.value) == #"{"laps":[],"splits":[1.5,2.5],"tags":{}}"#)
    try send("wipe")
    #expect(try json(store.state.value) == #"{"laps":{},"splits":[1.5,2.5],"tags":{}}"#)
    try send("reset")
    #expect(try json(store.state.value) == #"{"laps":[],"splits":[1.5,2.5],"tags":{}}"#)
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func aListOfTheInitialStateEmptiedInPlaceStaysAnArray() throws {
    try send("clearSplits")
    #expect(store.state.splits == .array([]))
    #expect(try json(store.state.value) == #"{"laps":[],"splits":[],"tags":{}}"#)
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func aListCopiedFromTheStateKeepsItsMark() throws {
    try send("copy")
    #expect(store.state.copied == .array([]))
    #expect(try reducer.residentState()?[LuaString("copied")] == .array([]))
  }

  @Test func isArraySeesTheMarkOfAStateTableThroughItsProxy() throws {
    try send("ask")
    #expect(store.state.answers == [true, true, false, true, false, false])
  }

  @Test func initialWithCopiesMarkedListsAndKeepsTheirMark() throws {
    try send("children")
    #expect(try json(store.state.value[LuaString("first")]) == #"{"marks":[1]}"#)
    #expect(try json(store.state.value[LuaString("second")]) == #"{"marks":[]}"#)
  }

  @Test func lunarJSONEncodeWritesMarkedListsAsArrays() throws {
    try send("encode")
    #expect(store.state.text == #"{"fresh":{},"listed":[1],"marked":[]}"#)
  }

  @Test func anEmptyArrayDecodedByLunarJSONIsEncodedBackAsAnArray() throws {
    try send("roundTrip")
    #expect(store.state.text == #"{"laps":[],"meta":{}}"#)
  }

  @Test func lunarArrayRefusesWhatIsNotAList() throws {
    func refusal(_ what: String) -> String? {
      store.send(["type": "bad", "what": .text(what)])
      return harness.takeErrors().first?.message
    }
    #expect(refusal("keys") == #"stopwatch.lua:26: lunar.array expects a list (keys 1 to n), got a table with the key "x""#)
    #expect(refusal("number") == "stopwatch.lua:26: lunar.array expects a list table (or nothing, for an empty one), got number 3")
    #expect(refusal("state") == "stopwatch.lua:26: lunar.array cannot mark a table that has a metatable (a table read "
      + "from `state` is one: assign `state.field = lunar.array { … }` instead)")
    #expect(store.state.text == .nil)
  }
}

/// Marked lists through a hot reload: the kept state keeps its marks.
@MainActor
@Suite(.serialized)
struct EmptyArrayReloadTests {
  static func script(_ version: Int) -> String {
    """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Laps", initial = { laps = lunar.array(), version = \(version) },
      reduce = function(state, action)
        if action.type == "lap" then table.insert(state.laps, #state.laps + 1) end
        if action.type == "clear" then table.remove(state.laps) end
      end,
    }
    """
  }

  @Test func aListEmptiedAfterAReloadIsStillAnArray() async throws {
    let fixture = try ReloadFixture(["feature.lua": Self.script(1)])
    fixture.send("lap")
    try fixture.write("feature.lua", Self.script(2))
    #expect(try await fixture.event(0).succeeded)
    fixture.send("clear")
    #expect(try LuaJSONEncoder().encodeText(fixture.store.state.value) == #"{"laps":[],"version":1}"#)
    #expect(try fixture.reducer.residentState() == fixture.store.state.value)
  }
}

/// `deps.storage` writes a marked list as `[]` and hands it back as a list.
@MainActor
@Suite struct EmptyArrayStorageTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx
    return lunar.feature {
      name = "Laps", initial = {},
      reduce = function(state, action, deps)
        if action.type == "save" then
          return fx.run(function(send)
            deps.storage.set("laps", { marked = lunar.array(), fresh = {} })
            local value = deps.storage.get("laps")
            send { type = "loaded", value = value, isArray = lunar.isArray(value.marked) }
          end)
        elseif action.type == "loaded" then
          state.value, state.isArray = action.value, action.isArray
        end
      end,
    }
    """

  @Test func aMarkedListIsStoredAsAnArrayAndReadBackAsAList() async throws {
    let file = URL(fileURLWithPath: "/data/lunar/storage/laps.json")
    let storage = FileStorage.inMemory()
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.storage(file: file, fileStorage: storage))
    let harness = try FeatureHarness(dependencies: dependencies)
    let feature = try harness.load(Self.source, chunkName: "laps.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    store.exhaustivity = .off
    await store.send(["type": "save"])
    await store.receive({ $0[LuaString("type")] == "loaded" })
    #expect(harness.takeErrors().isEmpty)
    let document = try storage.load(file).map { String(decoding: $0, as: UTF8.self) }
    #expect(document == "{\n  \"laps\": {\n    \"fresh\": {},\n    \"marked\": []\n  }\n}\n")
    #expect(store.state.isArray == true)
    #expect(try LuaJSONEncoder().encodeText(store.state.value[LuaString("value")]) == #"{"fresh":{},"marked":[]}"#)
  }
}
