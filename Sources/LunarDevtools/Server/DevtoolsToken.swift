/// The secret in the devtools page's address: only someone who was shown the address (the user, on
/// lunar's standard error) can open the page or its live connection.
///
/// 256 bits from the system's secure random source, written as 64 lowercase hex digits; compared
/// in constant time, so how long a refusal takes says nothing about how much of a guess was right.
public struct DevtoolsToken: Sendable, CustomStringConvertible {
  /// The token's bytes as hex digits (ASCII).
  private let digits: [UInt8]

  /// A new token, drawn from the system's secure random source.
  public init() {
    // NB: SystemRandomNumberGenerator reads the kernel's CSPRNG (getrandom on Linux, arc4random on Darwin).
    var generator = SystemRandomNumberGenerator()
    let hex = Array("0123456789abcdef".utf8)
    var digits: [UInt8] = []
    digits.reserveCapacity(64)
    for _ in 0..<4 {
      let word = generator.next() as UInt64
      for shift in stride(from: 60, through: 0, by: -4) {
        digits.append(hex[Int((word >> UInt64(shift)) & 0xF)])
      }
    }
    self.digits = digits
  }

  /// The token as it appears in the page's address.
  public var description: String { String(decoding: digits, as: UTF8.self) }

  /// Whether `candidate` is this token. Takes the same time whatever `candidate` holds, for
  /// candidates of any length up to the token's, and only depends on the length of longer ones.
  public func matches(_ candidate: some StringProtocol) -> Bool {
    var difference = UInt8(truncatingIfNeeded: candidate.utf8.count ^ digits.count)
    var index = 0
    for byte in candidate.utf8 {
      // NB: past the token's end, compare against its first digit: the loop's work stays the same.
      difference |= byte ^ digits[index < digits.count ? index : 0]
      index += 1
    }
    return difference == 0 && index == digits.count
  }
}
