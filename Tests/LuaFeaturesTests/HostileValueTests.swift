import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// State leaves Lua as JSON (events, recordings, saved files, devtools), so a value JSON cannot write
/// — NaN, an infinity, text or a key that is not UTF-8, a float key — is refused when a reducer
/// writes it, naming its path, rather than failing every event after it. The action is undone, the
/// snapshot equals the resident table, and the next action is served.
@MainActor
struct HostileValueTests {
  static let file = "unwritable_values.lua"
  nonisolated static let json = "state is written as JSON (events, recordings, saved files)"
  static let initialState: LuaValue = ["count": 0, "stats": ["ratio": 0.5], "tags": ["clé": 1]]

  struct Case: Sendable, CustomStringConvertible {
    var action: String
    var marker: String
    var message: String
    var description: String { action }
  }

  nonisolated static let cases: [Case] = [
    Case(action: "huge", marker: "-- huge",
         message: "cannot store infinity in state (at state.stats.ratio): \(json), which has no NaN or infinities"),
    Case(action: "minusHuge", marker: "-- minus huge",
         message: "cannot store -infinity in state (at state.stats.ratio): \(json), which has no NaN or infinities"),
    Case(action: "nan", marker: "-- nan",
         message: "cannot store NaN in state (at state.ratio): \(json), which has no NaN or infinities"),
    Case(action: "binaryString", marker: "-- binary string",
         message: "cannot store a string that is not UTF-8 in state (at state.title: byte 2 is 0xFF): \(json), "
           + "whose text is UTF-8; encode binary data as text first (hex, base64)"),
    Case(action: "surrogate", marker: "-- surrogate",
         message: "cannot store a string that is not UTF-8 in state (at state.title: byte 0 is 0xED): \(json), "
           + "whose text is UTF-8; encode binary data as text first (hex, base64)"),
    Case(action: "binaryKey", marker: "-- binary key",
         message: #"cannot store the key "\xFFx" in state (in state.tags: byte 0 is 0xFF): "#
           + "\(json), whose keys are UTF-8 text"),
    Case(action: "nestedNaN", marker: "-- nested nan",
         message: "cannot store NaN in state (at state.rows[1].score): \(json), which has no NaN or infinities"),
    Case(action: "nestedBinaryKey", marker: "-- nested binary key",
         message: #"cannot store the key "a\xC8" in state (in state.rows[1].names: byte 1 is 0xC8): "#
           + "\(json), whose keys are UTF-8 text"),
    Case(action: "nestedOverlong", marker: "-- nested overlong",
         message: "cannot store a string that is not UTF-8 in state (at state.rows[1].name: byte 0 is 0xC0): \(json), "
           + "whose text is UTF-8; encode binary data as text first (hex, base64)"),
    Case(action: "floatKey", marker: "-- float key",
         message: "cannot use the float 1.5 as a key in state (in state.tags): state keys are strings or integers"),
    Case(action: "nestedFloatKey", marker: "-- nested float key",
         message: "cannot use the float 0.5 as a key in state (in state.rows): state keys are strings or integers"),
    Case(action: "twinStringKey", marker: "-- twin string key",
         message: #"cannot store the key "1" in state (in state.list): it holds the integer key 1 already, and "#
           + #"\#(json), where both are the key "1"; use keys of one kind in a table"#),
    Case(action: "twinIntegerKey", marker: "-- twin integer key",
         message: #"cannot store the key -3 in state (in state.tags): it holds the string key "-3" already, and "#
           + #"\#(json), where both are the key "-3"; use keys of one kind in a table"#),
    Case(action: "nestedTwinKey", marker: "-- nested twin key",
         message: #"cannot store the key "7" in state (in state.rows[1]): it holds the integer key 7 already, and "#
           + #"\#(json), where both are the key "7"; use keys of one kind in a table"#),
  ]

  @Test(arguments: cases)
  func aValueJSONCannotWriteIsRefusedWhenWrittenAndTheActionUndone(_ refused: Case) throws {
    let source = try HostileStateTests.source(Self.file)
    let harness = try FeatureHarness()
    let feature = try harness.load(source, chunkName: Self.file)
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    store.send(["type": .text(refused.action)])

    let at = try #require(line(of: refused.marker, in: source))
    #expect(harness.takeErrors().map(\.message) == ["\(Self.file):\(at): \(refused.message)"])
    #expect(store.state.value == Self.initialState)
    #expect(try reducer.residentState() == store.state.value, "the snapshot drifted from the resident state")
    // NB: the state can still be written, and the next action is served.
    #expect(throws: Never.self) { try LuaJSONEncoder().encode(store.state.value, root: "state") }
    store.send(["type": "fine"])
    #expect(harness.errors.isEmpty)
    #expect(store.state.count == 1)
  }

  @Test func valuesJSONCanWriteAreStoredAsTheyAre() throws {
    let source = try HostileStateTests.source(Self.file)
    let harness = try FeatureHarness()
    let feature = try harness.load(source, chunkName: Self.file)
    let store = makeStore(feature.reducer(), state: feature.initialState)
    store.send(["type": "fine"])

    #expect(harness.errors.isEmpty)
    #expect(store.state.value == [
      "count": 1, "stats": ["ratio": 2.5], "title": "héllo ✓", "tags": ["clé": 2, "2": "two", "02": "not 2's twin"],
      "big": .integer(.max), "small": .integer(.min),
    ])
    let text = try LuaJSONEncoder().encodeText(store.state.value, root: "state")
    #expect(text.contains(#""small":-9223372036854775808"#))
  }

  @Test func anInitialStateJSONCannotWriteFailsTheLoad() throws {
    let harness = try FeatureHarness()
    let source = """
      local lunar = require "lunar"
      return lunar.feature { name = "Ratio", initial = { stats = { ratio = 0 / 0 } }, reduce = function() end }
      """
    #expect {
      try harness.load(source, chunkName: "ratio.lua")
    } throws: { error in
      (error as? LuaFeatureError)?.message
        == "the initial state cannot be written as JSON: initial.stats.ratio: NaN (not a number) is not a JSON number"
    }
  }
}
