import Foundation
import LuaBridge
import Testing

/// One documented conversion rule per test (see `LuaValue`).
@Suite struct ValueConversionTests {
  let vm: LuaVM

  init() throws { vm = try makeVM() }

  func run(_ source: String) throws -> [LuaValue] {
    try vm.call(vm.load(source, chunkName: "values.lua"))
  }

  func roundTrip(_ value: LuaValue) throws -> LuaValue {
    try vm.reference(value).value()
  }

  @Test func aLargeReadOfRowsAndOfDistinctKeysKeepsEveryKeyAndValue() throws {
    // NB: past a few dozen keys a read shares the keys rows repeat, and keeps a few hundred: both
    //     a list of rows and a map of a thousand keys of its own must read back whole.
    let value = try run("""
      local rows, map = {}, {}
      for i = 1, 500 do rows[i] = { id = i, title = "row " .. i, done = i % 2 == 0 } end
      for i = 1, 1000 do map["key" .. i] = i end
      return { rows = rows, map = map }
      """)[0]
    let rows = try #require(value["rows"].arrayValue)
    #expect(rows.count == 500)
    for (offset, row) in rows.enumerated() {
      let i = Int64(offset + 1)
      #expect(row == ["id": .integer(i), "title": .text("row \(i)"), "done": .boolean(i % 2 == 0)])
    }
    guard case let .table(map) = value["map"] else { Issue.record("map is \(value["map"])"); return }
    #expect(map.count == 1000)
    for i in 1...1000 { #expect(map[LuaString("key\(i)")] == .integer(Int64(i))) }
  }

  @Test func shortStringsPushedAgainAndAgainStayTheStringsScriptsCompare() throws {
    // NB: short strings come from a small cache of slots, which these keys share and replace in
    //     turn: every push must still be the very string, including the empty one, one with a zero
    //     byte, and strings either side of the cached length.
    let check = try vm.load("""
      local t, n = ...
      for i = 1, n do
        if t["k" .. i] ~= i then error("k" .. i .. " is " .. tostring(t["k" .. i])) end
      end
      return t[""], t["a\\0b"], t[string.rep("x", 24)], t[string.rep("x", 25)], t.type
      """, chunkName: "check.lua")
    var table: [LuaString: LuaValue] = [:]
    for i in 1...1000 { table[LuaString("k\(i)")] = .integer(Int64(i)) }
    table[LuaString("")] = "empty"
    table[LuaString(bytes: [0x61, 0, 0x62])] = "zero"
    table[LuaString(String(repeating: "x", count: 24))] = "24"
    table[LuaString(String(repeating: "x", count: 25))] = "25"
    table["type"] = "todos"
    for _ in 1...3 {
      #expect(try vm.call(check, LuaValue.table(table), 1000) == ["empty", "zero", "24", "25", "todos"])
    }
  }

  @Test func integersAndFloatsStayDistinct() throws {
    #expect(try run("return 3, 3.0") == [.integer(3), .number(3.0)])
    #expect(LuaValue.integer(3) != LuaValue.number(3.0))
  }

  @Test func integralFloatPushedFromSwiftStaysAFloatInLua() throws {
    let type = try vm.call(vm.load("return math.type(...)", chunkName: "t.lua"), LuaValue.number(3.0))
    #expect(type == ["float"])
  }

  @Test func extremeIntegersRoundTrip() throws {
    #expect(try run("return math.maxinteger, math.mininteger") == [.integer(.max), .integer(.min)])
    #expect(try roundTrip(.integer(.min)) == .integer(.min))
  }

  @Test func nanAndInfinitiesRoundTrip() throws {
    let values = try run("return 0/0, 1/0, -1/0")
    #expect(values[0].numberValue!.isNaN)
    #expect(values[1] == .number(.infinity))
    #expect(values[2] == .number(-.infinity))
    #expect(LuaValue.number(.nan) == LuaValue.number(.nan))
  }

  @Test func negativeZeroKeepsItsSign() throws {
    let inverse = try vm.call(vm.load("return 1 / ...", chunkName: "z.lua"), LuaValue.number(-0.0))
    #expect(inverse == [.number(-.infinity)])
    #expect(identical(try roundTrip(.number(-0.0)), .number(-0.0)))
  }

  @Test func stringsKeepNulAndInvalidUTF8Bytes() throws {
    let bytes = LuaString(bytes: [0x61, 0x00, 0xFF, 0xFE])
    let length = try vm.call(vm.load("return #(...)", chunkName: "len.lua"), bytes)
    #expect(length == [4])
    #expect(try roundTrip(.string(bytes)) == .string(bytes))
    #expect(bytes.string == nil)
  }

  @Test func aStringIsTextExactlyWhenItsBytesAreValidUTF8() {
    let valid: [[UInt8]] = [
      [], Array("plain".utf8), Array("é ✓ 🌙".utf8), [0xEF, 0xBF, 0xBD], [0x00], Array("a\u{FFFD}b".utf8),
    ]
    let invalid: [[UInt8]] = [
      [0xFF], [0xC3], [0xE2, 0x9C], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0x61, 0xEF, 0xBF], [0x80, 0x61],
    ]
    for bytes in valid { #expect(LuaString(bytes: bytes).string == String(decoding: bytes, as: UTF8.self)) }
    for bytes in invalid { #expect(LuaString(bytes: bytes).string == nil, "\(bytes)") }
    var random = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let bytes = (0..<Int.random(in: 0...6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      #expect(LuaString(bytes: bytes).string == String(validating: bytes, as: UTF8.self), "\(bytes)")
    }
  }

  @Test func arraysWithHolesReadWithNilElements() throws {
    #expect(try run("return {1, nil, 3}") == [[1, nil, 3]])
  }

  @Test func trailingNilElementsDisappear() throws {
    #expect(try roundTrip([1, nil, nil]) == [1])
  }

  @Test func sparseIntegerKeysReadAsTableWithDecimalKeys() throws {
    #expect(try run("return {[1000] = true}") == [["1000": true]])
  }

  @Test func hugeIntegerKeyDoesNotBecomeAHugeArray() throws {
    #expect(try run("return {[2^40 // 1] = 1}") == [["1099511627776": 1]])
  }

  @Test func mixedTablesReadWithDecimalKeys() throws {
    #expect(try run("return {1, 2, x = 3}") == [["1": 1, "2": 2, "x": 3]])
  }

  @Test func collidingIntegerAndStringKeysAreAnError() throws {
    let error = try #require(throws: LuaError.self) { try run("return {[1] = 'a', ['1'] = 'b'}") }
    #expect(error.conversion?.problem == .collidingKeys("1"))
  }

  @Test func booleanKeysAreAnErrorNamingTheTable() throws {
    let error = try #require(throws: LuaError.self) { try run("return {state = {[true] = 1}}") }
    #expect(error.conversion?.problem == .unsupportedKey(type: "boolean"))
    #expect(error.conversion?.path.description == "result #1.state")
  }

  @Test func fractionalFloatKeysAreAnError() throws {
    let error = try #require(throws: LuaError.self) { try run("return {[1.5] = 1}") }
    #expect(error.conversion?.problem == .unsupportedKey(type: "float"))
  }

  @Test func cyclesAreDetectedNamingBothEnds() throws {
    let error = try #require(throws: LuaError.self) { try run("local t = {inner = {}}; t.inner.back = t; return t") }
    #expect(error.conversion?.path.description == "result #1.inner.back")
    #expect(error.conversion?.problem == .cycle(firstSeenAt: LuaPath(root: "result #1")))
  }

  @Test func sharedTablesWithoutCycleAreCopied() throws {
    #expect(try run("local s = {1}; return {a = s, b = s}") == [["a": [1], "b": [1]]])
  }

  @Test func userdataAndThreadsAreNotData() throws {
    let error = try #require(throws: LuaError.self) { try run("return {co = coroutine.create(print)}") }
    #expect(error.conversion?.problem == .notData(type: "thread"))
    #expect(error.conversion?.path.description == "result #1.co")
  }

  @Test func readingDeeperThanTheLimitIsAnError() throws {
    let error = try #require(throws: LuaError.self) {
      try run("local t = {}; local c = t; for i = 1, 150 do c.x = {}; c = c.x end; return t")
    }
    #expect(error.conversion?.problem == .tooDeep(limit: 100))
  }

  @Test func pushingDeeperThanTheLimitIsAnError() throws {
    var value: LuaValue = 1
    for _ in 0..<150 { value = ["x": value] }
    let error = try #require(throws: LuaError.self) { try vm.reference(value) }
    #expect(error.kind == .conversion)
    #expect(error.conversion?.problem == .tooDeep(limit: 100))
  }

  @Test func emptyArrayRoundTripsAsArray() throws {
    #expect(try roundTrip(.array([])) == .array([]))
  }

  @Test func emptyLuaTableReadsAsTable() throws {
    #expect(try run("return {}") == [.table([:])])
  }

  @Test func nilTableEntriesDisappear() throws {
    #expect(try roundTrip(["a": nil, "b": 1]) == ["b": 1])
  }

  @Test func metatablesAreIgnoredWhenReading() throws {
    #expect(try run("return setmetatable({a = 1}, {__index = {b = 2}})") == [["a": 1]])
  }

  @Test func descriptionIsLuaSource() {
    let value: LuaValue = ["count": 3, "items": [1, 2.5, "three", nil], "odd key": true]
    #expect(value.description == #"{ count = 3, items = { 1, 2.5, "three", nil }, ["odd key"] = true }"#)
  }

  @Test func descriptionWritesSpecialFloatsAsLuaExpressions() {
    let value: LuaValue = [.number(.nan), .number(.infinity), .number(-.infinity), .number(-0.0), .number(3)]
    #expect(value.description == "{ 0/0, 1/0, -1/0, -0.0, 3.0 }")
  }

  @Test func descriptionEscapesInvalidUTF8() {
    #expect(LuaValue.string(LuaString(bytes: [0x61, 0x00, 0xFF])).description == #""a\x00\xFF""#)
    #expect(LuaValue.text("line\n\"q\"").description == #""line\n\"q\"""#)
  }

  @Test func jsonEncodingIsNatural() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let value: LuaValue = ["count": 3, "ratio": 0.5, "name": "x", "tags": ["a"], "none": nil, "empty": .array([])]
    let json = String(decoding: try encoder.encode(value), as: UTF8.self)
    #expect(json == #"{"count":3,"empty":[],"name":"x","none":null,"ratio":0.5,"tags":["a"]}"#)
  }

  @Test func jsonDecodingBuildsValues() throws {
    let json = #"{"count":3,"ratio":0.5,"ok":true,"list":[1,"a",null],"nested":{}}"#
    let value = try JSONDecoder().decode(LuaValue.self, from: Data(json.utf8))
    #expect(value == ["count": 3, "ratio": 0.5, "ok": true, "list": [1, "a", nil], "nested": .table([:])])
  }
}
