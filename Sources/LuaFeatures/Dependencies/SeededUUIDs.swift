import ConcurrencyExtras
import Foundation

/// UUIDs drawn from a seed: the same ones, in the same order, on every run with that seed, as
/// `math.random` is. What `deps.uuid()` answers under `lunar run --seed 42`.
///
/// ```swift
/// var dependencies = LuaDependencies.builtIn
/// dependencies.drawUUIDs(from: SeededUUIDs(seed: 42))
/// ```
///
/// Without a seed, `deps.uuid()` stays random: ids saved to a file by one run must not come back
/// in the next.
public final class SeededUUIDs: Sendable {
  private let state: LockIsolated<UInt64>

  /// A generator whose draws depend only on `seed`.
  public init(seed: UInt64) {
    state = LockIsolated(seed)
  }

  /// The next UUID (version 4, variant 1, as random ones are).
  public func next() -> UUID {
    var bytes = [UInt8]()
    bytes.reserveCapacity(16)
    for _ in 0..<2 {
      var word = draw()
      for _ in 0..<8 {
        bytes.append(UInt8(truncatingIfNeeded: word))
        word >>= 8
      }
    }
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    return UUID(uuid: (
      bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
      bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
    ))
  }

  /// SplitMix64: one 64-bit word per step.
  private func draw() -> UInt64 {
    state.withValue { state in
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}

extension LuaDependencies {
  /// Makes `deps.uuid()` answer the UUIDs of `generator`, in order.
  public mutating func drawUUIDs(from generator: SeededUUIDs) {
    sync("uuid") { () -> String in generator.next().uuidString }
  }
}
