import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// The scripts of `Hostile/` try to reach the state behind the journal's back — an object with a
/// metatable, a table kept after storing it, the primitive `next`, an alias, a `migrate` that
/// stores an object. Each is refused with an exact error, or cannot reach the state at all; the
/// state is then exactly as before, and the snapshot Swift holds equals the resident table.
@MainActor
struct HostileStateTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hostile")

  static func source(_ file: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
  }

  /// Loads `file`, sends `actions` through a store, and returns what a test checks.
  func run(_ file: String, _ actions: [LuaValue]) throws -> (store: Store<LuaState, LuaValue>, reducer: LuaReducer, errors: [LuaFeatureError]) {
    let harness = try FeatureHarness()
    let feature = try harness.load(try Self.source(file), chunkName: file)
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    for action in actions { store.send(action) }
    #expect(try reducer.residentState() == store.state.value, "the snapshot drifted from the resident state")
    return (store, reducer, harness.takeErrors())
  }

  @Test func aTableWithAMetatableIsRefusedAndTheActionUndone() throws {
    let source = try Self.source("metatable_in_state.lua")
    let (store, _, errors) = try run("metatable_in_state.lua", [["type": "storeObject"]])
    let at = try #require(line(of: "state.point = setmetatable", in: source))
    #expect(errors.map(\.message) == [
      "metatable_in_state.lua:\(at): state holds plain tables only: the table stored at \"point\" (or one inside it) "
        + "has a metatable; store its data instead"
    ])
    #expect(store.state.value == ["count": 0])
  }

  @Test func aTableWithAMetatableInsideAStoredTableIsRefused() throws {
    let source = try Self.source("metatable_in_state.lua")
    let (store, _, errors) = try run("metatable_in_state.lua", [["type": "storeNestedObject"]])
    let at = try #require(line(of: "state.shape =", in: source))
    #expect(errors.map(\.message) == [
      "metatable_in_state.lua:\(at): state holds plain tables only: the table stored at \"shape\" (or one inside it) "
        + "has a metatable; store its data instead"
    ])
    #expect(store.state.value == ["count": 0])
  }

  @Test func aStoredTableTheScriptKeepsIsNotTheState() throws {
    let source = try Self.source("kept_table.lua")
    let (store, _, errors) = try run(
      "kept_table.lua", [["type": "store"], ["type": "writeKept"], ["type": "writeKeptQuietly"]])
    let at = try #require(line(of: "-- raise", in: source))
    #expect(errors.map(\.message) == ["kept_table.lua:\(at): undo this action"])
    #expect(store.state.value == ["count": 0, "box": ["n": 1]])
  }

  @Test func thePrimitiveNextFindsNothingInAProxy() throws {
    let (store, _, errors) = try run("raw_next.lua", [["type": "rawNext"]])
    #expect(errors.isEmpty)
    #expect(store.state.found == true)
  }

  @Test func aRowReachedThroughNextIsJournaledAndRolledBack() throws {
    let source = try Self.source("raw_next.lua")
    let (store, _, errors) = try run("raw_next.lua", [["type": "nextThenFail"]])
    let at = try #require(line(of: "-- raise", in: source))
    #expect(errors.map(\.message) == ["raw_next.lua:\(at): undo the write made through next"])
    #expect(store.state.rows == [["id": 1, "done": false]])
  }

  @Test func aRowReachedThroughNextIsWrittenThroughItsProxy() throws {
    let (store, _, errors) = try run("raw_next.lua", [["type": "nextWrites"]])
    #expect(errors.isEmpty)
    #expect(store.state.rows == [["id": 1, "done": true]])
  }

  @Test func assigningATableOfTheStateStoresACopyEvenWithinTheAction() throws {
    let (store, _, errors) = try run("alias.lua", [["type": "alias"]])
    #expect(errors.isEmpty)
    #expect(store.state.a == ["v": 1])
    #expect(store.state.b == ["v": 2])
  }

  @Test func aTableOfTheStateListedTwiceIsTwoCopies() throws {
    let (store, _, errors) = try run("alias.lua", [["type": "aliasInList"]])
    #expect(errors.isEmpty)
    #expect(store.state.a == ["v": 1])
    #expect(store.state.list == [["v": 3], ["v": 1]])
  }

  @Test func migrateStoringATableWithAMetatableIsRefusedAndUndone() throws {
    let harness = try FeatureHarness()
    let old = try harness.load("""
      local lunar = require "lunar"
      return lunar.feature {
        name = "Objects",
        initial = { count = 0 },
        reduce = function(state) state.count = state.count + 1 end,
      }
      """, chunkName: "objects.lua")
    let reducer = old.reducer()
    let store = makeStore(reducer, state: old.initialState)
    store.send(["type": "bump"])
    let source = try Self.source("migrate_metatable.lua")
    let newer = try harness.load(source, chunkName: "migrate_metatable.lua")
    let error = try #require(throws: LuaFeatureError.self) { try reducer.swap(to: newer) }
    let at = try #require(line(of: "state.point = setmetatable", in: source))
    #expect(error.kind == .migration)
    #expect(error.message == "migrate_metatable.lua:\(at): state holds plain tables only: the table stored at "
      + "\"point\" (or one inside it) has a metatable; store its data instead")
    #expect(try reducer.residentState() == ["count": 1])
    store.send(["type": "bump"])
    #expect(store.state.value == ["count": 2])
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func corpusHasATestForEveryFile() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".lua") }
    // NB: unwritable_values.lua is HostileValueTests', kept_send.lua HostileSendTests',
    //     unwritable_actions.lua HostileUnwritableActionTests'.
    #expect(Set(files) == [
      "metatable_in_state.lua", "kept_table.lua", "raw_next.lua", "alias.lua", "migrate_metatable.lua",
      "unwritable_values.lua", "kept_send.lua", "unwritable_actions.lua",
    ])
  }
}
