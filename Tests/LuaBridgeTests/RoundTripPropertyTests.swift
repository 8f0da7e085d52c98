import LuaBridge
import Testing

/// Random value trees through Lua and back, compared under the documented rules (`normalized`).
@Suite struct RoundTripPropertyTests {
  /// Builds random trees rich in awkward cases: extreme numbers, binary strings, holes, empties.
  struct TreeGenerator {
    var rng: SeededGenerator

    mutating func value(depth: Int) -> LuaValue {
      let roll = Int.random(in: 0..<100, using: &rng)
      if depth > 0 && roll < 25 { return array(depth: depth - 1) }
      if depth > 0 && roll < 45 { return table(depth: depth - 1) }
      return scalar()
    }

    mutating func scalar() -> LuaValue {
      switch Int.random(in: 0..<8, using: &rng) {
      case 0: return .boolean(Bool.random(using: &rng))
      case 1, 2: return .integer(integer())
      case 3, 4: return .number(float())
      default: return .string(string())
      }
    }

    mutating func integer() -> Int64 {
      let specials: [Int64] = [0, 1, -1, .max, .min, .max - 1, .min + 1, 1 << 53, (1 << 53) + 1]
      if Bool.random(using: &rng) { return specials.randomElement(using: &rng)! }
      return Int64(bitPattern: rng.next())
    }

    mutating func float() -> Double {
      let specials: [Double] = [
        0.0, -0.0, .nan, .infinity, -.infinity, 3.0, -3.0, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude, .leastNormalMagnitude, 9_007_199_254_740_993.0, 0.1, 1e300,
      ]
      switch Int.random(in: 0..<3, using: &rng) {
      case 0: return specials.randomElement(using: &rng)!
      case 1: return Double(Int.random(in: -1000...1000, using: &rng))  // integral floats stay floats
      default: return Double(bitPattern: rng.next())
      }
    }

    mutating func string() -> LuaString {
      switch Int.random(in: 0..<5, using: &rng) {
      case 0: return ""
      case 1: return LuaString(bytes: (0..<Int.random(in: 1...12, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
      case 2: return LuaString(String(Int.random(in: 0...20, using: &rng)))  // looks like an index
      case 3: return "a\0b"
      default: return LuaString(["name", "état", "🌙", "x y", "end", "_1"].randomElement(using: &rng)!)
      }
    }

    mutating func array(depth: Int) -> LuaValue {
      let count = Int.random(in: 0...6, using: &rng)
      return .array((0..<count).map { _ in
        Int.random(in: 0..<6, using: &rng) == 0 ? .nil : value(depth: depth)
      })
    }

    mutating func table(depth: Int) -> LuaValue {
      var entries: [LuaString: LuaValue] = [:]
      for _ in 0..<Int.random(in: 0...5, using: &rng) {
        entries[string()] = Int.random(in: 0..<8, using: &rng) == 0 ? .nil : value(depth: depth)
      }
      return .table(entries)
    }
  }

  @Test func tenThousandRandomTreesRoundTripUnderTheDocumentedRules() throws {
    let vm = try makeVM()
    let identity = try vm.call(vm.load("return function(v) return v end", chunkName: "identity.lua"), returning: LuaFunction.self)
    var generator = TreeGenerator(rng: SeededGenerator(seed: 0x4C75_6E61))
    var awkward = 0
    for _ in 0..<10_000 {
      let value = generator.value(depth: 5)
      let back = try identity.call(value)
      #expect(back.count == 1)
      let expected = value.normalized
      #expect(identical(back[0], expected), "\(value) came back as \(back[0])")
      #expect(expected.normalized == expected)
      if expected != value { awkward += 1 }
    }
    #expect(awkward > 500)  // the generator does exercise the rules
  }

  @Test func randomTreesSurviveAReferenceRoundTrip() throws {
    let vm = try makeVM()
    var generator = TreeGenerator(rng: SeededGenerator(seed: 7))
    for _ in 0..<1_000 {
      let value = generator.table(depth: 4)
      let reference = try vm.reference(value)
      #expect(identical(try reference.value(), value.normalized))
    }
  }
}
