import Foundation
import LuaBridge
import Testing

/// `LuaValue` and `LuaString` through Swift's own coders: refused when Swift text cannot hold them,
/// never trapped on, never silently changed.
struct LuaValueCodableTests {
  struct Tagged: Codable, Equatable {
    var name: LuaString
    var payload: LuaValue
  }

  @Test func keysThatAreOneSwiftStringThrowInsteadOfMerging() throws {
    let value = LuaValue.table([LuaString("\u{E9}"): 1, LuaString("e\u{301}"): 2, "type": "n"])
    let error = try #require(throws: EncodingError.self) { try JSONEncoder().encode(value) }
    guard case let .invalidValue(_, context) = error else { Issue.record("\(error)"); return }
    #expect(context.debugDescription.contains("are different bytes but the same Swift string"))
  }

  @Test func invalidUTF8ThrowsInsteadOfBecomingAReplacementCharacter() throws {
    let value: LuaValue = ["title": .string(LuaString(bytes: [0x6D, 0xFF]))]
    let error = try #require(throws: EncodingError.self) { try JSONEncoder().encode(value) }
    guard case let .invalidValue(_, context) = error else { Issue.record("\(error)"); return }
    #expect(context.debugDescription == #"the string "m\xFF" is not valid UTF-8 at byte 1 (0xFF), so it cannot be a Swift String"#)
    #expect(context.codingPath.map(\.stringValue) == ["title"])
  }

  @Test func aLuaStringKeepsItsBytesThroughLuaEncoderAndLuaDecoder() throws {
    let tagged = Tagged(name: LuaString(bytes: [0x61, 0xFF, 0x00]), payload: ["k": .string(LuaString(bytes: [0xFE]))])
    let encoded = try LuaEncoder().encode(tagged)
    #expect(encoded["name"] == .string(LuaString(bytes: [0x61, 0xFF, 0x00])))
    #expect(try LuaDecoder().decode(Tagged.self, from: encoded) == tagged)
    let vm = try makeVM()
    let identity = try vm.call(vm.load("return function(v) return v end", chunkName: "identity.lua"), returning: LuaFunction.self)
    let back = try identity.call(LuaEncoded(tagged))
    #expect(try LuaDecoder().decode(Tagged.self, from: back[0]) == tagged)
  }
}
