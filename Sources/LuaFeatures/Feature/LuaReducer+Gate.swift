import LuaBridge

/// The declared-actions gate of a ``LuaReducer``: an action a Swift store sends to a feature that
/// declares its actions passes ``LuaFeature/problem(with:)``, the check of the prompt, `lunar host`,
/// tests and effects, before the reducer runs.
///
/// A refused action is reported through the host (``LuaFeatureHost/onError``: an issue failing the
/// test at its `send` line by default) and not reduced: state is left unchanged, no effect runs.
///
/// NB: the check is the prelude's, in Lua. So that an action of a shape already accepted costs no
///     call into Lua, the gate remembers the fingerprints of the shapes it accepted (see
///     `LuaActionShape`); what the check reads of an action is its shape only, so an action of a
///     remembered shape is accepted without asking. A reload (a new feature) forgets them.
///     `@unchecked Sendable`: used on the main actor only, like the instance beside it.
///     Its fields are read on every action of the main actor alone, never while being written: no
///     access checks.
final class LuaActionGate: @unchecked Sendable {
  @exclusivity(unchecked) private var feature: LuaFeature?
  @exclusivity(unchecked) private var accepted: [UInt64] = []
  /// Beyond this many shapes, new ones are checked each time rather than remembered: the memory a
  /// feature's gate holds stays small whatever its actions.
  private static let capacity = 64

  /// Why `feature` refuses `action`, or `nil` when it takes it.
  @MainActor func refusal(of action: LuaValue, by feature: LuaFeature) -> String? {
    guard feature.declaresActions else { return nil }
    if self.feature !== feature {
      self.feature = feature
      accepted.removeAll()
    }
    let fingerprint = LuaActionShape.fingerprint(of: action)
    if let fingerprint, accepted.contains(fingerprint) { return nil }
    if let problem = feature.problem(with: action) { return problem }
    if let fingerprint, accepted.count < Self.capacity { accepted.append(fingerprint) }
    return nil
  }
}

/// The shape of an action, as the declared-actions check reads it: the value of every `type` key,
/// the names of the fields and the kind of each value (boolean, integer, float, string, array,
/// nested table), at every depth; nothing else of the values.
///
/// Two actions of one shape pass or fail the check alike: field types are Lua types (with
/// integer and float apart), nested actions are checked by their own `type` and fields. What the
/// check reads beyond the shape (a float that is not finite, a string that may not be UTF-8, deep
/// nesting) gives no fingerprint, and such an action is checked each time.
///
/// NB: fields are combined by a wrapping sum, so the fingerprint does not depend on the order a
///     Swift dictionary lists them in; each is FNV-1a hashed, then mixed (a 64-bit finalizer) so
///     that sums of different fields do not cancel out.
enum LuaActionShape {
  private static let maxDepth = 8

  static func fingerprint(of action: LuaValue) -> UInt64? {
    fingerprint(action, depth: 0)
  }

  private static func fingerprint(_ value: LuaValue, depth: Int) -> UInt64? {
    switch value {
    case .nil: return 1
    case .boolean: return 2
    case .integer: return 3
    case let .number(number): return number.isFinite ? 4 : nil
    case let .string(string): return isASCII(string.bytes) ? 5 : nil
    case let .array(elements):
      guard depth < maxDepth else { return nil }
      var sum: UInt64 = 6
      for (index, element) in elements.enumerated() {
        guard let inner = fingerprint(element, depth: depth + 1) else { return nil }
        sum &+= mix(UInt64(index) &* 0x9E37_79B9_7F4A_7C15 ^ inner)
      }
      return mix(sum)
    case let .table(fields):
      guard depth < maxDepth else { return nil }
      var sum: UInt64 = 7
      for (key, field) in fields {
        guard var hash = asciiHash(key.bytes, 0xCBF2_9CE4_8422_2325) else { return nil }
        if hash == typeKeyHash, key.bytes.count == 4, case let .string(type) = field {
          guard let typed = asciiHash(type.bytes, hash ^ 0xFF) else { return nil }
          hash = typed
        } else {
          guard let inner = fingerprint(field, depth: depth + 1) else { return nil }
          hash ^= inner
        }
        sum &+= mix(hash)
      }
      return mix(sum)
    }
  }

  /// The hash of the key `type` (what `asciiHash` gives for it), to find the key without comparing
  /// bytes. Another 4-byte key of the same hash would have its string value hashed in too: a
  /// fingerprint more specific than needed, never less.
  private static let typeKeyHash: UInt64 = asciiHash(Array("type".utf8), 0xCBF2_9CE4_8422_2325)!

  private static func isASCII(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      var high: UInt8 = 0
      for byte in buffer { high |= byte }
      return high < 0x80
    }
  }

  /// FNV-1a of `bytes` from `start`, or `nil` when they are not all ASCII.
  private static func asciiHash(_ bytes: [UInt8], _ start: UInt64) -> UInt64? {
    bytes.withUnsafeBufferPointer { buffer in
      var hash = start
      var high: UInt8 = 0
      for byte in buffer {
        high |= byte
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
      }
      return high < 0x80 ? hash : nil
    }
  }

  private static func mix(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x &*= 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 33
    x &*= 0xC4CE_B9FE_1A85_EC53
    x ^= x >> 33
    return x
  }
}
