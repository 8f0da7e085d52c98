import Foundation
import LuaBridge

/// A small seeded generator (SplitMix64), so property tests replay exactly.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Equality that also tells -0.0 from 0.0 (LuaValue's `==` does not, on purpose).
func identical(_ a: LuaValue, _ b: LuaValue) -> Bool {
  switch (a, b) {
  case let (.number(x), .number(y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
  case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
  case let (.table(x), .table(y)):
    return x.count == y.count && x.allSatisfy { key, value in y[key].map { identical(value, $0) } ?? false }
  default: return a == b
  }
}

/// A VM with small limits, for tests. No time limit unless asked: how far a call gets in a second
/// depends on the machine's load (the tests of the time limit set their own).
func makeVM(instructions: Int? = 10_000_000, memory: Int? = 64 << 20, time: Duration? = nil) throws -> LuaVM {
  try LuaVM(limits: .init(instructionsPerCall: instructions, memoryBytes: memory, timePerCall: time))
}

/// Whether this process runs under ThreadSanitizer (its runtime is linked in).
enum ThreadSanitizer {
  static let isActive: Bool = dlsym(nil, "__tsan_init") != nil
}
