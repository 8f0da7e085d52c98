import LuaBridge
import Testing

/// Random value trees through `LuaJSONEncoder` and `LuaJSONDecoder`: what can be written reads back
/// as the same value, bit for bit, and the same value is always the same text.
struct JSONRoundTripPropertyTests {
  /// Trees of JSON-able values only: UTF-8 strings and keys (including look-alike keys), finite
  /// floats (integral ones too), extreme integers, holes and empty containers.
  struct Generator {
    var rng: SeededGenerator

    mutating func value(depth: Int) -> LuaValue {
      let roll = Int.random(in: 0..<100, using: &rng)
      if depth > 0 && roll < 25 { return array(depth: depth - 1) }
      if depth > 0 && roll < 45 { return table(depth: depth - 1) }
      return scalar()
    }

    mutating func scalar() -> LuaValue {
      switch Int.random(in: 0..<9, using: &rng) {
      case 0: return .boolean(Bool.random(using: &rng))
      case 1: return .nil
      case 2, 3: return .integer(Bool.random(using: &rng) ? [0, -1, .max, .min, 1 << 53].randomElement(using: &rng)! : Int64(bitPattern: rng.next()))
      case 4, 5: return .number(float())
      default: return .string(string())
      }
    }

    mutating func float() -> Double {
      switch Int.random(in: 0..<3, using: &rng) {
      case 0: return [0.0, -0.0, 3.0, 0.1, 1e-5, 1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 9_007_199_254_740_993.0].randomElement(using: &rng)!
      case 1: return Double(Int.random(in: -1000...1000, using: &rng))
      default:
        let number = Double(bitPattern: rng.next())
        return number.isFinite ? number : 1.5
      }
    }

    mutating func string() -> LuaString {
      switch Int.random(in: 0..<5, using: &rng) {
      case 0: return ""
      case 1: return LuaString(String((0..<Int.random(in: 1...8, using: &rng)).map { _ in
        Character(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &rng)))
      }))
      case 2: return LuaString(["\u{E9}", "e\u{301}", "\u{212B}", "\u{C5}", "A\u{30A}"].randomElement(using: &rng)!)
      case 3: return "a\0b\n\"\\"
      default: return LuaString(["name", "état", "🌙", "x y", "1", "\u{2028}"].randomElement(using: &rng)!)
      }
    }

    mutating func array(depth: Int) -> LuaValue {
      .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(depth: depth) })
    }

    mutating func table(depth: Int) -> LuaValue {
      var entries: [LuaString: LuaValue] = [:]
      for _ in 0..<Int.random(in: 0...5, using: &rng) { entries[string()] = value(depth: depth) }
      return .table(entries)
    }
  }

  @Test func randomTreesReadBackBitForBit() throws {
    var generator = Generator(rng: SeededGenerator(seed: 0x4A53_4F4E))
    for pretty in [false, true] {
      let encoder = LuaJSONEncoder(prettyPrinted: pretty)
      for _ in 0..<3_000 {
        let value = generator.value(depth: 5)
        let text = try encoder.encode(value)
        let back = try LuaJSONDecoder().decode(text)
        #expect(identical(back, value), "\(value) came back as \(back)")
        #expect(try encoder.encode(back) == text, "the same value is the same text")
      }
    }
  }

  @Test func randomFloatsReadBackExactly() throws {
    var rng = SeededGenerator(seed: 99)
    for _ in 0..<20_000 {
      let number = Double(bitPattern: rng.next())
      guard number.isFinite else { continue }
      let back = try LuaJSONDecoder().decode(try LuaJSONEncoder().encode(.number(number)))
      #expect(identical(back, .number(number)), "\(number) read back as \(back)")
    }
  }

  @Test func aStringIsWrittenExactlyWhenItIsValidUTF8() throws {
    var rng = SeededGenerator(seed: 11)
    for _ in 0..<20_000 {
      let bytes = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
        Bool.random(using: &rng) ? UInt8.random(in: 0x80...0xFF, using: &rng) : UInt8.random(in: 0...0xFF, using: &rng)
      }
      let value = LuaValue.string(LuaString(bytes: bytes))
      if String(validating: bytes, as: UTF8.self) != nil {
        #expect(try LuaJSONDecoder().decode(try LuaJSONEncoder().encode(value)) == value)
      } else {
        #expect(throws: LuaJSONError.self) { try LuaJSONEncoder().encode(value) }
      }
    }
  }

  @Test func randomBytesNeverTrapTheDecoder() {
    var rng = SeededGenerator(seed: 5)
    let pieces: [String] = ["{", "}", "[", "]", ",", ":", "\"a\"", "1", "-", ".5", "e9", "null", "tru", "\\u", "\"", " ", "\u{E9}"]
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...12, using: &rng) {
        if Int.random(in: 0..<6, using: &rng) == 0 {
          bytes.append(UInt8.random(in: 0...255, using: &rng))
        } else {
          bytes += Array(pieces.randomElement(using: &rng)!.utf8)
        }
      }
      _ = try? LuaJSONDecoder().decode(bytes)
    }
  }
}
