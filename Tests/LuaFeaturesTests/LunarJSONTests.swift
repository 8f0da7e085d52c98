import Composable
import LuaBridge
@testable import LuaFeatures
import Testing

/// `lunar.json`: the host's codec in a script's hands, anywhere (a reducer, a view, a client).
@MainActor
@Suite struct LunarJSONTests {
  func evaluate(_ expression: String) throws -> LuaValue {
    let harness = try FeatureHarness()
    let feature = try harness.load("""
      local lunar = require "lunar"
      return lunar.feature {
        name = "JSON", initial = {},
        reduce = function(state, action) state.result = \(expression) end,
      }
      """, chunkName: "json.lua")
    let store = makeStore(feature.reducer(), state: feature.initialState)
    store.send(["type": "go"])
    if let error = harness.takeErrors().first { throw error }
    return store.state.value[LuaString("result")]
  }

  @Test func encodeWritesKeysInByteOrderAndKeepsIntegers() throws {
    #expect(try evaluate(#"lunar.json.encode { b = 1, a = { 1.5, true, "x" } }"#) == #"{"a":[1.5,true,"x"],"b":1}"#)
  }

  @Test func encodePrettyIndents() throws {
    #expect(try evaluate(#"lunar.json.encode({ a = 1 }, { pretty = true })"#) == "{\n  \"a\": 1\n}")
  }

  @Test func decodeReadsObjectsArraysAndNumbers() throws {
    #expect(try evaluate(#"lunar.json.decode('{"n": 3, "f": 2.5, "list": [1, "two"], "ok": false}')"#)
      == ["n": 3, "f": 2.5, "list": [1, "two"], "ok": false])
  }

  @Test func aRoundTripKeepsTheValue() throws {
    #expect(try evaluate(#"lunar.json.decode(lunar.json.encode { title = "milk", done = true, tags = { "a", "b" } })"#)
      == ["title": "milk", "done": true, "tags": ["a", "b"]])
  }

  @Test(arguments: [
    ("lunar.json.encode { ratio = 0/0 }", "lunar.json.encode: value.ratio: NaN (not a number) is not a JSON number"),
    (#"lunar.json.encode { name = "\xff" }"#, "lunar.json.encode: value.name"),
    (#"lunar.json.decode('{"a": 1, "a": 2}')"#, "lunar.json.decode:"),
    (#"lunar.json.decode("{ not json")"#, "lunar.json.decode:"),
    ("lunar.json.decode(42)", "lunar.json.decode expects a string, got number"),
  ])
  func whatJSONCannotHoldIsAnErrorAtTheScriptsLine(_ expression: String, _ message: String) throws {
    let error = try #require(throws: LuaFeatureError.self) { try evaluate(expression) }
    #expect(error.message.contains("json.lua:4: " + message), "\(error)")
  }

  @Test func aScriptCannotReplaceTheCodecForOtherFeatures() throws {
    let error = try #require(throws: LuaFeatureError.self) { try evaluate("(function() lunar.json.encode = print end)()") }
    #expect(error.message.contains("lunar.json is read-only"), "\(error)")
  }
}
