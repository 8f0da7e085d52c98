import LuaBridge
import Testing

/// A value's `description` is Lua source that reads back as exactly that value: what
/// `lunar replay --as-test` writes into a test, where a literal read back as another value (an
/// integer as a float, a string with other bytes) would assert something the session never held.
@MainActor
struct LuaLiteralRoundTripTests {
  nonisolated static let edgeCases: [LuaValue] = [
    .integer(.min), .integer(.max), .integer(-1), .integer(0),
    .number(3.0), .number(-3.0), .number(1e16), .number(9_007_199_254_740_994), .number(-0.0), .number(0.0),
    .number(.greatestFiniteMagnitude), .number(-.greatestFiniteMagnitude), .number(.leastNonzeroMagnitude),
    .number(.leastNormalMagnitude), .number(0.1), .number(1e-7), .number(123_456_789.125),
    .number(.infinity), .number(-.infinity),
    .string(LuaString(bytes: [0x00, 0x01, 0x1F, 0x7F, 0x0A, 0x0D, 0x09, 0x22, 0x5C])),
    .string(LuaString(bytes: [0x61, 0xFF, 0xC0, 0xAF, 0xED, 0xA0, 0x80])),
    .text("é ✓ \u{85} \u{2028} 🌙"), .text("]]"), .text(""),
    ["min": .integer(.min), "nested": [.number(-0.0), .integer(.min), .text("\u{0}")], "odd key": .number(2.0)],
  ]

  @Test(arguments: edgeCases)
  func aLiteralReadsBackAsTheSameValue(_ value: LuaValue) throws {
    let vm = try makeVM()
    let read = try vm.call(vm.load("return \(value.description)", chunkName: "literal.lua"))

    #expect(read.count == 1)
    #expect(identical(read[0], value), "\(value.description) read back as \(read[0].description)")
  }

  @Test func theSmallestIntegerIsWrittenAsAnIntegerExpression() throws {
    #expect(LuaValue.integer(.min).description == "math.mininteger")
    let vm = try makeVM()
    #expect(try vm.call(vm.load("return math.type(\(LuaValue.integer(.min).description))", chunkName: "type.lua")) == ["integer"])
  }
}
