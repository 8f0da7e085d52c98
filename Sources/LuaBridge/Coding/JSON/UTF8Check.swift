/// Finding the first byte that makes a byte string invalid UTF-8 (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF), to name it in an error.
enum UTF8Check {
  /// The offset of the first byte of `bytes` that does not start a valid UTF-8 sequence (a stray
  /// continuation byte, or the lead byte of a sequence that is cut short, overlong, a surrogate or
  /// out of range), or `nil` when all of it is valid.
  static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      // NB: the allowed range of the second byte rules out overlong forms (E0, F0), surrogates
      //     (ED) and code points above U+10FFFF (F4).
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: length = 3; low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: length = 3; high = 0x9F
      case 0xF0: length = 4; low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4: length = 4; high = 0x8F
      default: return index
      }
      guard index + 1 < count, (low...high).contains(bytes[index + 1]) else { return index }
      for next in 2..<length {
        guard index + next < count, (0x80...0xBF).contains(bytes[index + next]) else { return index }
      }
      index += length
    }
    return nil
  }

  static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { firstInvalidOffset($0) }
  }
}
