import LuaBridge
import Testing

/// `LuaJSONEncoder` and `LuaJSONDecoder`: bytes in, bytes out, nothing lost and nothing guessed.
struct JSONCodecTests {
  let encoder = LuaJSONEncoder()
  let decoder = LuaJSONDecoder()

  func text(_ value: LuaValue, pretty: Bool = false) throws -> String {
    try LuaJSONEncoder(prettyPrinted: pretty).encodeText(value, root: "state")
  }

  func encodingError(_ value: LuaValue, depthLimit: Int = 100) -> LuaJSONError? {
    do {
      _ = try LuaJSONEncoder(depthLimit: depthLimit).encode(value, root: "state")
      return nil
    } catch {
      return error
    }
  }

  func decodingError(_ text: some Collection<UInt8>, depthLimit: Int = 100) -> LuaJSONError? {
    do {
      _ = try LuaJSONDecoder(depthLimit: depthLimit).decode(Array(text), root: "settings")
      return nil
    } catch {
      return error
    }
  }

  // MARK: Writing

  @Test func scalarsAreWrittenAsJSON() throws {
    #expect(try text(nil) == "null")
    #expect(try text(true) == "true")
    #expect(try text(-42) == "-42")
    #expect(try text(.integer(.min)) == "-9223372036854775808")
    #expect(try text("a \"b\" \\ / é 🌙") == #""a \"b\" \\ / é 🌙""#)
  }

  @Test func integersStayIntegersAndFloatsKeepTheirPoint() throws {
    #expect(try text(3) == "3")
    #expect(try text(3.0) == "3.0")
    #expect(try text(-0.0) == "-0.0")
    #expect(try text(0.1) == "0.1")
    #expect(try text(1e-5) == "1e-05")
    #expect(try text(1e300) == "1e+300")
    #expect(try decoder.decode("3") == .integer(3))
    #expect(try decoder.decode("3.0") == .number(3))
    #expect(try decoder.decode("1e2") == .number(100))
  }

  @Test func controlCharactersAreEscaped() throws {
    let value = LuaValue.string(LuaString(bytes: [0x00, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1F, 0x7F]))
    #expect(try text(value) == #""\u0000\b\t\n\f\r\u001f\#u{7F}""#)
  }

  @Test func keysAreSortedByBytes() throws {
    let value: LuaValue = ["b": 1, "a": 2, "B": 3, "é": 4, "z": 5, "aa": 6]
    #expect(try text(value) == #"{"B":3,"a":2,"aa":6,"b":1,"z":5,"é":4}"#)
  }

  @Test func canonicallyEquivalentKeysAreTwoKeys() throws {
    let composed = LuaString("\u{E9}")
    let decomposed = LuaString("e\u{301}")
    let value = LuaValue.table([composed: 1, decomposed: 2, "type": "n"])
    let written = try text(value)
    #expect(written == "{\"e\u{301}\":2,\"type\":\"n\",\"\u{E9}\":1}")
    #expect(try decoder.decode(written) == value)
  }

  @Test func nilAndEmptyContainersFollowLuaValue() throws {
    #expect(try text(.array([1, nil, 3])) == "[1,null,3]")
    #expect(try text(.table(["a": nil])) == #"{"a":null}"#)
    #expect(try text(.array([])) == "[]")
    #expect(try text(.table([:])) == "{}")
    #expect(try decoder.decode("[]") == .array([]))
    #expect(try decoder.decode("{}") == .table([:]))
    #expect(try decoder.decode(#"{"a":null}"#) == .table(["a": nil]))
  }

  @Test func prettyPrintingIndentsByTwoSpaces() throws {
    let value: LuaValue = ["list": [1, 2], "name": "x", "none": .table([:])]
    #expect(
      try text(value, pretty: true) == """
        {
          "list": [
            1,
            2
          ],
          "name": "x",
          "none": {}
        }
        """)
  }

  @Test func invalidUTF8IsRefusedWithItsPathAndOffset() throws {
    let title = LuaValue.string(LuaString(bytes: Array("milk".utf8) + [0xFF]))
    let value: LuaValue = ["todos": [["title": "a"], ["title": "b"], ["title": title]]]
    let error = try #require(encodingError(value))
    #expect(error.problem == .invalidUTF8(offset: 4, byte: 0xFF))
    #expect(error.description == "state.todos[3].title: not valid UTF-8 at byte 4 (0xFF); JSON text must be UTF-8")
  }

  @Test func aKeyThatIsNotUTF8IsRefusedAtItsTable() throws {
    let value: LuaValue = ["tags": .table([LuaString(bytes: [0x61, 0xFE]): true])]
    let error = try #require(encodingError(value))
    #expect(error.description == #"state.tags: the key "a\xFE" is not valid UTF-8 at byte 1 (0xFE); JSON text must be UTF-8"#)
  }

  @Test func keysThatDifferOnlyInInvalidBytesAreRefusedNotMerged() throws {
    // NB: as Swift strings both would be "\u{FFFD}": the old writer kept one of them.
    let value = LuaValue.table([LuaString(bytes: [0xFF]): 1, LuaString(bytes: [0xFE]): 2])
    let error = try #require(encodingError(value))
    #expect(error.description == #"state: the key "\xFE" is not valid UTF-8 at byte 0 (0xFE); JSON text must be UTF-8"#)
  }

  @Test func nonFiniteNumbersAreRefused() throws {
    #expect(encodingError(["ratio": .number(.nan)])?.description == "state.ratio: NaN (not a number) is not a JSON number")
    #expect(encodingError([.number(.infinity)])?.description == "state[1]: infinity is not a JSON number")
    #expect(encodingError(.number(-.infinity))?.description == "state: -infinity is not a JSON number")
  }

  @Test func nestingDeeperThanTheLimitIsRefused() throws {
    var value: LuaValue = [:]
    for _ in 0..<3 { value = ["a": value] }   // four tables
    #expect(encodingError(value, depthLimit: 4) == nil)
    let error = try #require(encodingError(value, depthLimit: 3))
    #expect(error.description == "state.a.a.a: nested deeper than the limit of 3 levels")
  }

  // MARK: Reading

  @Test func objectsWithTheSameKeyTwiceAreRefused() throws {
    let error = try #require(decodingError(Array(#"{"theme":"dark","size":{"a":1,"a":2}}"#.utf8)))
    #expect(error.problem == .duplicateKey("a"))
    #expect(error.description == #"settings.size: the key "a" appears twice in one object (at byte 30 of the text)"#)
  }

  @Test func anEscapedKeyIsTheSameKeyAsItsBytes() throws {
    let error = try #require(decodingError(Array(#"{"é":1,"\u00e9":2}"#.utf8)))
    #expect(error.problem == .duplicateKey("é"))
  }

  @Test func composedAndDecomposedKeysAreReadAsTwoKeys() throws {
    let value = try decoder.decode("{\"\u{E9}\":1,\"e\u{301}\":2}")
    #expect(value.tableValue?.count == 2)
    #expect(value[LuaString("\u{E9}")] == 1)
    #expect(value[LuaString("e\u{301}")] == 2)
  }

  @Test func escapesAreRead() throws {
    #expect(try decoder.decode(#""\"\\\/\b\f\n\r\t\u0041\u00e9\ud83c\udf19""#) == "\"\\/\u{8}\u{C}\n\r\tAé🌙")
  }

  @Test func numbersFollowLuasNumerals() throws {
    #expect(try decoder.decode("-0") == .integer(0))
    #expect(try decoder.decode("9223372036854775807") == .integer(.max))
    #expect(try decoder.decode("-9223372036854775808") == .integer(.min))
    #expect(try decoder.decode("9223372036854775808") == .number(9_223_372_036_854_775_808))
    #expect(try decoder.decode("1e-400") == .number(0))
    #expect(decodingError(Array("[1e400]".utf8))?.description == "settings[1]: the number 1e400 is too large for a float (at byte 1 of the text)")
  }

  @Test func textThatIsNotJSONIsRefusedWithWhereItStopped() throws {
    #expect(decodingError(Array(#"{"a":[1,2 3]}"#.utf8))?.description == "settings.a: expected ',' or ']' after an element of an array, found '3' (at byte 10 of the text)")
    #expect(decodingError(Array("".utf8))?.description == "settings: the text is empty; expected a JSON value (at byte 0 of the text)")
    #expect(decodingError(Array("{ not json".utf8))?.description == "settings: expected a key (a string in double quotes), found 'n' (at byte 2 of the text)")
    #expect(decodingError(Array("[1] x".utf8))?.description == "settings: unexpected 'x' after the value (at byte 4 of the text)")
    #expect(decodingError(Array("01".utf8))?.description == "settings: a number cannot start with 0 (at byte 0 of the text)")
    #expect(decodingError(Array("[NaN]".utf8))?.description == "settings[1]: expected a JSON value, found 'N' (at byte 1 of the text)")
    #expect(decodingError(Array(#"["a\u0001"]"#.utf8)) == nil)
    #expect(decodingError(Array("[\"a\u{1}\"]".utf8))?.description == "settings[1]: a control character (0x01) inside a string must be escaped (at byte 3 of the text)")
  }

  @Test func invalidUTF8InTheTextIsRefusedWithItsOffset() throws {
    let error = try #require(decodingError(Array(#"{"a":"x"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)))
    #expect(error.description == "settings.a: not valid UTF-8 at byte 7 (0xC3); JSON text must be UTF-8 (at byte 7 of the text)")
  }

  @Test func loneSurrogatesAreRefused() throws {
    #expect(decodingError(Array(#""\ud800""#.utf8))?.description == #"settings: \ud800 is half of a surrogate pair, without its other half (at byte 1 of the text)"#)
    #expect(decodingError(Array(#""\udc00x""#.utf8)) != nil)
  }

  @Test func nestingDeeperThanTheLimitIsRefusedWhenRead() throws {
    let deep = String(repeating: "[", count: 101) + String(repeating: "]", count: 101)
    #expect(decodingError(Array(deep.dropFirst().dropLast().utf8)) == nil)
    let error = try #require(decodingError(Array(deep.utf8)))
    #expect(error.problem == .tooDeep(limit: 100))
    #expect(error.offset == 100)
    #expect(error.description == "settings[1][1][1][1][1][1]…(91 more)…[1][1][1]: nested deeper than the limit of 100 levels (at byte 100 of the text)")
  }

  @Test func aByteOrderMarkIsSkipped() throws {
    #expect(try decoder.decode([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
  }
}
